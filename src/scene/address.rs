//! The web page's address as its command line: `?preset=cornell&boids=5000&seed=3&set=max_speed=4`.
//! The keys are the native scene flags: `preset`, `boids`, `seed`, `world`, `set`, `leader`,
//! `hunter`; and `baud`, the serial rate of a board the page mirrors; and `ticks`, a run of the
//! scene's ticks without drawing that reports as `murmur headless` does (`web::ticks`).
//!
//! The browser has no flags, so the page reads the scene from its URL query. Built for every
//! target so that its rules are tested natively; only the web page uses it. A bad value never
//! stops the page: it is reported as a warning and the default takes its place.

use super::SceneConfig;
use super::request::{SceneRequest, Unmet, WorldFit};
use super::text::{ScenePoint, WorldSize, parse_scene_point, parse_world_size};
use murmur_flock::murmur_core::preset::MAX_BOIDS;

/// The preset the page opens with when the address names none (or one that does not load).
pub const DEFAULT_PRESET: &str = "reynolds";

/// What the query asks for; `None` where it says nothing (or nothing usable).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageQuery {
    /// `preset=NAME`: a built-in preset.
    pub preset: Option<String>,
    /// `boids=N`: the number of birds (the world grows to keep the preset's density).
    pub boids: Option<u32>,
    /// `seed=S`: the first flock's seed.
    pub seed: Option<u64>,
    /// `set=NAME=VALUE`, any number of times: parameter overrides, as `--set` on the command line.
    pub set: Vec<String>,
    /// `world=WxH` (`WxHxD`: a 3D world): the world's size (instead of the preset's, or its
    /// growth with `boids`).
    pub world: Option<WorldSize>,
    /// `leader=X,Y` (`X,Y,Z` in 3D): a leader placed at start, in world units.
    pub leader: Option<ScenePoint>,
    /// `hunter=X,Y` (`X,Y,Z` in 3D): a hunting predator let loose at start, in world units.
    pub hunter: Option<ScenePoint>,
    /// `baud=N`: the serial line's rate for a board mirrored over Web Serial (as `murmur
    /// mirror --baud`; 115200 when not given).
    pub baud: Option<u32>,
    /// `ticks=N`: run the scene N ticks with the headless plugin set, without drawing, and report
    /// the state hash and the tick's time as `murmur headless` does (the page's speed and
    /// results measured against the native app's).
    pub ticks: Option<u64>,
}

/// The most ticks a page's `ticks=N` run takes (at 60 ticks a second, over four hours of flight).
pub const MAX_TICKS: u64 = 1_000_000;

/// The slowest and fastest serial rates the page opens a board's port at.
pub const BAUD_RANGE: std::ops::RangeInclusive<u32> = 1200..=4_000_000;

impl PageQuery {
    /// True when the query says nothing about the scene (the page then resumes the last
    /// visit's flock); the serial rate is not the scene.
    pub fn asks_for_no_scene(&self) -> bool {
        *self
            == PageQuery {
                baud: self.baud,
                ..PageQuery::default()
            }
    }
}

/// Reads a query string (`location.search`, with or without its leading `?`). Returns what it
/// understood and a warning for each part it could not use.
pub fn parse(search: &str) -> (PageQuery, Vec<String>) {
    let mut query = PageQuery::default();
    let mut warnings = Vec::new();
    let search = search.strip_prefix('?').unwrap_or(search);
    for part in search.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        let (key, value) = (decode(key), decode(value));
        let mut bad = |what: &str| warnings.push(format!("{key}={value}: {what}; ignored"));
        match key.as_str() {
            "preset" if !value.is_empty() => query.preset = Some(value),
            "boids" => match value.parse::<u32>() {
                Ok(n) if (1..=MAX_BOIDS).contains(&n) => query.boids = Some(n),
                _ => bad(&format!(
                    "expected a whole number of birds, 1 to {MAX_BOIDS}"
                )),
            },
            "seed" => match value.parse::<u64>() {
                Ok(s) => query.seed = Some(s),
                Err(_) => bad("expected a whole number"),
            },
            "set" if value.contains('=') => query.set.push(value),
            "set" => bad("expected NAME=VALUE, e.g. set=max_speed=4"),
            "world" => match parse_world_size(&value) {
                Ok(s) => query.world = Some(s),
                Err(e) => bad(&e),
            },
            "leader" => match parse_scene_point(&value) {
                Ok(p) => query.leader = Some(p),
                Err(e) => bad(&e),
            },
            "hunter" => match parse_scene_point(&value) {
                Ok(p) => query.hunter = Some(p),
                Err(e) => bad(&e),
            },
            "baud" => match value.parse::<u32>() {
                Ok(b) if BAUD_RANGE.contains(&b) => query.baud = Some(b),
                _ => bad("expected a serial rate, 1200 to 4000000"),
            },
            "ticks" => match value.parse::<u64>() {
                Ok(n) if (1..=MAX_TICKS).contains(&n) => query.ticks = Some(n),
                _ => bad(&format!(
                    "expected a whole number of ticks, 1 to {MAX_TICKS}"
                )),
            },
            // `murmur run --gpu`'s path needs compute shaders, which the page's WebGL2 lacks.
            "gpu" => warnings.push(format!(
                "{part}: the GPU path needs compute shaders, which this page's WebGL2 does not \
                 have; the CPU flies the flock (`murmur run --gpu` has it)"
            )),
            _ => bad(
                "not something the page understands (preset, boids, seed, world, set, leader, \
                 hunter, baud, ticks)",
            ),
        }
    }
    (query, warnings)
}

/// The scene the query asks for, with a warning for each part that could not be honoured.
pub fn scene(query: &PageQuery) -> (SceneConfig, Vec<String>) {
    let request = SceneRequest {
        preset: query.preset.as_deref().unwrap_or(DEFAULT_PRESET),
        boids: query.boids,
        world: query.world,
        overrides: &query.set,
    };
    let mut resolved = request
        .resolve(WorldFit::KeepDensity, Unmet::Warn)
        .expect("a page's request falls back rather than fails");
    let deep = resolved.preset.world.depth > 0.0;
    let name = query.preset.as_deref().unwrap_or(DEFAULT_PRESET);
    let mut point = |what: &str, p: Option<ScenePoint>| {
        p.and_then(|p| match p.in_world(deep, what, name) {
            Ok(at) => Some(at),
            Err(e) => {
                resolved.warnings.push(format!("{e}; ignored"));
                None
            }
        })
    };
    let (leader, hunter) = (point("leader", query.leader), point("hunter", query.hunter));
    let scene = SceneConfig {
        preset: resolved.preset,
        boids: resolved.boids as usize,
        seed: query.seed.unwrap_or(1),
        leader,
        hunter,
    };
    (scene, resolved.warnings)
}

/// Undoes the URL's percent-encoding (`%3D` is `=`, `+` a space); a malformed escape stays as
/// it was written.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::keep_density;
    use murmur_flock::murmur_core::preset::Preset;

    #[test]
    fn an_empty_address_gives_the_default_scene() {
        for search in ["", "?"] {
            let (query, warnings) = parse(search);
            assert_eq!(query, PageQuery::default());
            assert!(warnings.is_empty());
            let (scene, warnings) = super::scene(&query);
            assert!(warnings.is_empty());
            let default = SceneConfig::load(DEFAULT_PRESET, 1).unwrap();
            assert_eq!(scene.boids, default.boids);
            assert_eq!(scene.seed, 1);
            assert_eq!(scene.preset, default.preset);
        }
    }

    #[test]
    fn the_query_chooses_preset_size_seed_overrides_and_leader() {
        let (query, warnings) =
            parse("?preset=cornell&boids=12000&seed=7&set=visual_range%3D55&leader=100,-50");
        assert!(warnings.is_empty(), "{warnings:?}");
        let (scene, warnings) = super::scene(&query);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!((scene.boids, scene.seed), (12_000, 7));
        // 3,000 birds in 640x480 by default: four times the birds, twice the side.
        assert_eq!(
            (scene.preset.world.width, scene.preset.world.height),
            (1280.0, 960.0)
        );
        let mut expected = Preset::load("cornell").unwrap();
        keep_density(&mut expected, 12_000);
        expected.apply_overrides(&["visual_range=55"]).unwrap();
        assert_eq!(scene.preset, expected);
        assert_eq!(scene.leader, Some(bevy::math::Vec3::new(100.0, -50.0, 0.0)));
        assert_eq!(scene.hunter, None);

        let (query, warnings) = parse("boids=12000&world=700x500&hunter=-300,20");
        assert!(warnings.is_empty(), "{warnings:?}");
        let (scene, _) = super::scene(&query);
        assert_eq!(
            (scene.preset.world.width, scene.preset.world.height),
            (700.0, 500.0),
            "the world asked for, not grown"
        );
        assert_eq!(scene.hunter, Some(bevy::math::Vec3::new(-300.0, 20.0, 0.0)));
    }

    #[test]
    fn asking_for_the_gpu_says_why_the_cpu_flies() {
        let (query, warnings) = parse("gpu=1&boids=500");
        assert_eq!(query.boids, Some(500));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("compute shaders"), "{warnings:?}");
    }

    #[test]
    fn bad_parts_are_warned_about_and_the_rest_still_applies() {
        let (query, warnings) = parse(
            "preset=cornell&boids=lots&seed=-1&set=nonsense&leader=1,x&colour=red&boids=0&seed=9\
             &world=0x100&hunter=nan,1",
        );
        assert_eq!(warnings.len(), 8, "{warnings:?}");
        assert!(warnings[0].starts_with("boids=lots: expected a whole number"));
        assert!(
            warnings
                .iter()
                .any(|w| w.starts_with("colour=red: not something"))
        );
        assert_eq!(query.preset.as_deref(), Some("cornell"));
        assert_eq!((query.boids, query.seed), (None, Some(9)));
        assert_eq!(
            (query.world, query.leader, query.hunter),
            (None, None, None)
        );

        let query = PageQuery {
            preset: Some("no-such-preset".into()),
            set: vec!["max_speed=4".into(), "max_speed=fast".into()],
            ..PageQuery::default()
        };
        let (scene, warnings) = super::scene(&query);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].starts_with("preset=no-such-preset: "));
        assert!(warnings[1].starts_with("set=max_speed=fast: "));
        let mut expected = Preset::load(DEFAULT_PRESET).unwrap();
        expected.apply_overrides(&["max_speed=4"]).unwrap();
        assert_eq!(
            scene.preset, expected,
            "the default preset, and the good override stays"
        );
    }

    #[test]
    fn the_serial_rate_is_read_checked_and_not_part_of_the_scene() {
        let (query, warnings) = parse("baud=9600");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(query.baud, Some(9600));
        assert!(
            query.asks_for_no_scene(),
            "a rate alone resumes the last flock"
        );
        assert!(!parse("baud=9600&boids=10").0.asks_for_no_scene());
        for bad in ["baud=0", "baud=fast", "baud=5000000"] {
            let (query, warnings) = parse(bad);
            assert_eq!(query.baud, None, "{bad}");
            assert!(
                warnings[0].contains("expected a serial rate"),
                "{bad}: {warnings:?}"
            );
        }
    }

    #[test]
    fn a_run_of_ticks_is_read_and_checked() {
        let (query, warnings) = parse("preset=cornell&ticks=600");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(query.ticks, Some(600));
        // A run measures a known scene: alone it is the default one, not the last visit's.
        assert!(!parse("ticks=600").0.asks_for_no_scene());
        for bad in ["ticks=0", "ticks=many", "ticks=-1", "ticks=1000001"] {
            let (query, warnings) = parse(bad);
            assert_eq!(query.ticks, None, "{bad}");
            assert!(
                warnings[0].contains("expected a whole number of ticks"),
                "{bad}: {warnings:?}"
            );
        }
    }

    #[test]
    fn percent_escapes_are_decoded_and_malformed_ones_kept() {
        assert_eq!(decode("a%3Db+c"), "a=b c");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz%4"), "%zz%4");
        assert_eq!(decode("%C3%A9"), "é");
    }

    #[test]
    fn a_3d_preset_opens_in_3d_with_its_points_in_three_coordinates() {
        let (query, _) = parse("?preset=reynolds3d&boids=300&leader=10,20,30");
        let (scene, warnings) = super::scene(&query);
        assert!(scene.preset.world.depth > 0.0);
        assert_eq!(scene.boids, 300);
        assert_eq!(scene.leader, Some(bevy::math::Vec3::new(10.0, 20.0, 30.0)));
        assert!(warnings.is_empty(), "{warnings:?}");
        // Negative control: a point with a depth in a flat world is warned about and left out.
        let (query, _) = parse("?preset=reynolds&leader=10,20,30");
        let (scene, warnings) = super::scene(&query);
        assert_eq!(scene.leader, None);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
    }
}
