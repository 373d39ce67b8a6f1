//! Scene values written as text — points `X,Y` and sizes `WIDTHxHEIGHT` — read the same way by
//! the command line's flags and the web page's address.

/// Parses `X,Y` into two finite numbers.
pub fn parse_point(s: &str) -> Result<(f32, f32), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y, e.g. 100,-50, got `{s}`"))?;
    let num = |t: &str| -> Result<f32, String> {
        t.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{t}` is not a number"))
    };
    Ok((num(x)?, num(y)?))
}

/// Parses `WIDTHxHEIGHT` into two positive numbers.
pub fn parse_world(s: &str) -> Result<(f32, f32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, e.g. 1280x720, got `{s}`"))?;
    let num = |t: &str| -> Result<f32, String> {
        t.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
            .ok_or_else(|| format!("`{t}` is not a positive number"))
    };
    Ok((num(w)?, num(h)?))
}
