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

/// A world's size as written: `WIDTHxHEIGHT`, or `WIDTHxHEIGHTxDEPTH` for a 3D world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldSize {
    /// Width (x).
    pub width: f32,
    /// Height (y; up in 3D).
    pub height: f32,
    /// Depth (z), when a 3D world is asked for.
    pub depth: Option<f32>,
}

/// Parses `WIDTHxHEIGHT` or `WIDTHxHEIGHTxDEPTH` into positive numbers.
pub fn parse_world_size(s: &str) -> Result<WorldSize, String> {
    let parts: Vec<&str> = s.split(['x', 'X']).collect();
    let num = |t: &str| -> Result<f32, String> {
        t.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
            .ok_or_else(|| format!("`{t}` is not a positive number"))
    };
    match parts.as_slice() {
        [w, h] => Ok(WorldSize {
            width: num(w)?,
            height: num(h)?,
            depth: None,
        }),
        [w, h, d] => Ok(WorldSize {
            width: num(w)?,
            height: num(h)?,
            depth: Some(num(d)?),
        }),
        _ => Err(format!(
            "expected WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH, e.g. 1280x720 or 800x400x800, got `{s}`"
        )),
    }
}

/// A point in the world as written: `X,Y`, or `X,Y,Z` in a 3D world (y up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScenePoint {
    /// x.
    pub x: f32,
    /// y (up in 3D).
    pub y: f32,
    /// z, when given.
    pub z: Option<f32>,
}

impl ScenePoint {
    /// The point, z = 0 when none was given.
    pub fn at(self) -> bevy::math::Vec3 {
        bevy::math::Vec3::new(self.x, self.y, self.z.unwrap_or(0.0))
    }

    /// The point for a world that is 3D (`deep`) or flat, or why it does not fit: a point with
    /// a depth needs a 3D world. (A flat point in a 3D world lies at z = 0.) `what` names it in
    /// the message, `preset` the world's preset.
    pub fn in_world(
        self,
        deep: bool,
        what: &str,
        preset: &str,
    ) -> Result<bevy::math::Vec3, String> {
        if self.z.is_some() && !deep {
            return Err(format!(
                "{what} {},{},{}: a point with a depth needs a 3D world, and the preset \
                 `{preset}` is flat; give X,Y, or a 3D preset (such as reynolds3d) or a world \
                 with a depth (WxHxD)",
                self.x,
                self.y,
                self.z.unwrap_or_default()
            ));
        }
        Ok(self.at())
    }
}

/// Parses `X,Y` or `X,Y,Z` into finite numbers.
pub fn parse_scene_point(s: &str) -> Result<ScenePoint, String> {
    let parts: Vec<&str> = s.split(',').collect();
    let num = |t: &str| -> Result<f32, String> {
        t.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{t}` is not a number"))
    };
    match parts.as_slice() {
        [x, y] => Ok(ScenePoint {
            x: num(x)?,
            y: num(y)?,
            z: None,
        }),
        [x, y, z] => Ok(ScenePoint {
            x: num(x)?,
            y: num(y)?,
            z: Some(num(z)?),
        }),
        _ => Err(format!(
            "expected X,Y or X,Y,Z, e.g. 100,-50 or 100,20,-50, got `{s}`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worlds_and_points_in_two_or_three_numbers() {
        assert_eq!(
            parse_world_size("800x400x600"),
            Ok(WorldSize {
                width: 800.0,
                height: 400.0,
                depth: Some(600.0)
            })
        );
        assert_eq!(parse_world_size("640x480").unwrap().depth, None);
        for bad in ["0x1x1", "1x1x-2", "1x1x1x1", "1xnanx1", "10", "1x1xinf"] {
            assert!(parse_world_size(bad).is_err(), "{bad}");
        }
        let p = parse_scene_point("1,-2,3.5").unwrap();
        assert_eq!((p.x, p.y, p.z), (1.0, -2.0, Some(3.5)));
        assert_eq!(parse_scene_point("1,2").unwrap().z, None);
        for bad in ["1", "1,2,3,4", "1,x", "1,2,nan"] {
            assert!(parse_scene_point(bad).is_err(), "{bad}");
        }
        let err = p.in_world(false, "--leader", "cornell").unwrap_err();
        assert!(err.contains("needs a 3D world"), "{err}");
        assert_eq!(p.in_world(true, "--leader", "x").unwrap().z, 3.5);
    }
}
