//! Eight boids at a time through the per-boid update: plain arrays in short loops without
//! branches, which the compiler turns into vector instructions. Each lane does the very
//! operations of the one-boid code, so the results are the same bits.

/// Boids per group.
pub(crate) const LANES: usize = 8;

/// One value per boid of a group.
pub(crate) type Lane = [f32; LANES];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::GridLayout;
    use crate::models::ModelKind;
    use crate::preset::Preset;
    use crate::world::WorldBounds;
    use glam::Vec2;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// Values of every kind: ordinary, zero of both signs, huge, infinite, NaN.
    fn values(n: usize, scale: f32, seed: u64) -> Vec<f32> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let odd = [
            0.0,
            -0.0,
            1e30,
            -1e30,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        (0..n)
            .map(|i| {
                if i % 11 == 3 {
                    odd[(i / 11) % odd.len()]
                } else {
                    (rng.random::<f32>() * 2.0 - 1.0) * scale
                }
            })
            .collect()
    }

    fn groups(xs: &[f32], ys: &[f32]) -> impl Iterator<Item = (Lane, Lane)> {
        xs.chunks_exact(LANES)
            .zip(ys.chunks_exact(LANES))
            .map(|(x, y)| {
                (
                    x.try_into().expect("a group"),
                    y.try_into().expect("a group"),
                )
            })
    }

    /// Bits, with every NaN the same.
    fn bits(x: f32) -> u32 {
        if x.is_nan() {
            f32::NAN.to_bits()
        } else {
            x.to_bits()
        }
    }

    #[test]
    fn a_group_integrates_to_the_bits_of_one_boid_at_a_time() {
        let kinds = [
            ModelKind::Reynolds,
            ModelKind::Cornell,
            ModelKind::SpaceBoids,
            ModelKind::Vicsek,
            ModelKind::Couzin,
            ModelKind::Abm,
        ];
        for kind in kinds {
            let model = Preset::defaults_for(kind).model();
            for scale in [0.5, 4.0, 50.0] {
                let v = groups(&values(800, scale, 1), &values(800, scale, 2)).collect::<Vec<_>>();
                let a = groups(&values(800, scale, 3), &values(800, scale, 4)).collect::<Vec<_>>();
                for ((vx, vy), (ax, ay)) in v.into_iter().zip(a) {
                    let (mut gx, mut gy) = (vx, vy);
                    model.integrate_lanes(&mut gx, &mut gy, &ax, &ay);
                    for l in 0..LANES {
                        let one = model
                            .integrate_velocity(Vec2::new(vx[l], vy[l]), Vec2::new(ax[l], ay[l]));
                        assert_eq!(
                            (bits(gx[l]), bits(gy[l])),
                            (bits(one.x), bits(one.y)),
                            "{kind:?}: v ({}, {}), a ({}, {})",
                            vx[l],
                            vy[l],
                            ax[l],
                            ay[l]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_group_wraps_and_finds_cells_as_one_boid_at_a_time_does() {
        for wrapped in [true, false] {
            let bounds = WorldBounds::centred(300.0, 200.0, wrapped);
            let layout = GridLayout::new(&bounds, 17.0, 1000);
            // Mostly inside, some just outside and far outside, some not finite.
            for scale in [140.0, 160.0, 1e6] {
                for (x, y) in groups(&values(800, scale, 5), &values(800, scale * 0.7, 6)) {
                    let (mut wx, mut wy) = (x, y);
                    bounds.wrap_lanes(&mut wx, &mut wy);
                    let cells = layout.cell_indices(&x, &y);
                    for l in 0..LANES {
                        let p = Vec2::new(x[l], y[l]);
                        let one = bounds.wrap(p);
                        assert_eq!(
                            (bits(wx[l]), bits(wy[l])),
                            (bits(one.x), bits(one.y)),
                            "{p}"
                        );
                        assert_eq!(cells[l] as usize, layout.cell_index(p), "{p}");
                    }
                }
            }
        }
    }
}
