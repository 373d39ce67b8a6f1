//! Where pictures go and what they are called.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The folder for pictures: `$MURMUR_PICTURES_DIR`, else the platform's pictures folder, else
/// the working directory.
pub fn pictures_dir() -> PathBuf {
    if let Some(own) = std::env::var_os("MURMUR_PICTURES_DIR").filter(|v| !v.is_empty()) {
        return PathBuf::from(own);
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(dir) = directories::UserDirs::new()
        .and_then(|u| u.picture_dir().map(Path::to_path_buf))
        .filter(|d| d.is_dir())
    {
        return dir;
    }
    PathBuf::from(".")
}

/// A file name in `dir` from the date and time (UTC), `murmur-2026-12-01-115303Z.EXT`, with a
/// number added when that name is taken.
pub fn timestamped(dir: &Path, extension: &str) -> PathBuf {
    let stamp = utc_stamp(now());
    let mut path = dir.join(format!("murmur-{stamp}.{extension}"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("murmur-{stamp}-{n}.{extension}"));
        n += 1;
    }
    path
}

/// The time now (the browser's clock on the web page, where the standard library has none).
fn now() -> SystemTime {
    #[cfg(target_arch = "wasm32")]
    {
        UNIX_EPOCH + std::time::Duration::from_millis(js_sys::Date::now() as u64)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        SystemTime::now()
    }
}

/// `YYYY-MM-DD-HHMMSSZ` for a time.
fn utc_stamp(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}-{:02}{:02}{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The calendar date of a day counted from 1970-01-01 (proleptic Gregorian).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn stamps_are_calendar_dates() {
        let t = UNIX_EPOCH + Duration::from_secs(1_796_125_983); // 2026-12-01 11:53:03 UTC
        assert_eq!(utc_stamp(t), "2026-12-01-115303Z");
        assert_eq!(utc_stamp(UNIX_EPOCH), "1970-01-01-000000Z");
        // A leap day.
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }
}
