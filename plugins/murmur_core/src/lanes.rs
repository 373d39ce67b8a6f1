//! Eight boids at a time through the per-boid update: plain arrays in short loops without
//! branches, which the compiler turns into vector instructions. Each lane does the very
//! operations of the one-boid code, so the results are the same bits.

/// Boids per group.
pub(crate) const LANES: usize = 8;

/// One value per boid of a group.
pub(crate) type Lane = [f32; LANES];

#[cfg(test)]
// The checks loop over a space's axes, indexing several per-axis arrays at once.
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::grid::GridLayout;
    use crate::models::ModelKind;
    use crate::preset::Preset;
    use crate::space::Vector;
    use crate::world::WorldBounds;
    use glam::{Vec2, Vec3};
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

    /// Groups of eight: one lane array per axis, from `columns` (one per axis; the rest zero).
    fn groups(columns: &[Vec<f32>]) -> Vec<[Lane; 3]> {
        let n = columns[0].len() / LANES;
        (0..n)
            .map(|g| {
                let mut out = [[0.0; LANES]; 3];
                for (o, c) in out.iter_mut().zip(columns) {
                    o.copy_from_slice(&c[g * LANES..(g + 1) * LANES]);
                }
                out
            })
            .collect()
    }

    /// Bits, with every NaN the same.
    fn bits(x: f32) -> u32 {
        if x.is_nan() {
            f32::NAN.to_bits()
        } else {
            x.to_bits()
        }
    }

    fn integrate_like_one_at_a_time<V: Vector>() {
        let kinds = [
            ModelKind::Reynolds,
            ModelKind::Cornell,
            ModelKind::SpaceBoids,
            ModelKind::Vicsek,
            ModelKind::Couzin,
            ModelKind::Abm,
            ModelKind::Starlings,
        ];
        for kind in kinds {
            let model = Preset::defaults_for(kind).model();
            for scale in [0.5, 4.0, 50.0] {
                let column = |seed| values(800, scale, seed);
                let v = groups(&(1..=V::DIM as u64).map(column).collect::<Vec<_>>());
                let a = groups(&(11..11 + V::DIM as u64).map(column).collect::<Vec<_>>());
                for (v, a) in v.into_iter().zip(a) {
                    let mut g = v;
                    model.integrate_lanes::<V>(&mut g, &a);
                    for l in 0..LANES {
                        let at = |x: &[Lane; 3]| V::from_axes([x[0][l], x[1][l], x[2][l]]);
                        let one = model.integrate_velocity(at(&v), at(&a));
                        for axis in 0..V::DIM {
                            assert_eq!(
                                bits(g[axis][l]),
                                bits(one.axis(axis)),
                                "{} {kind:?}: v {:?}, a {:?}",
                                V::NAME,
                                at(&v),
                                at(&a)
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_group_integrates_to_the_bits_of_one_boid_at_a_time() {
        integrate_like_one_at_a_time::<Vec2>();
        integrate_like_one_at_a_time::<Vec3>();
    }

    fn wrap_and_cells_like_one_at_a_time<V: Vector>(bounds: WorldBounds<V>) {
        let layout = GridLayout::new(&bounds, 17.0, 1000);
        // Mostly inside, some just outside and far outside, some not finite.
        for scale in [140.0, 160.0, 1e6] {
            let columns: Vec<Vec<f32>> = (0..V::DIM as u64)
                .map(|a| values(800, scale * (1.0 - 0.15 * a as f32), 5 + a))
                .collect();
            for p in groups(&columns) {
                let mut w = p;
                bounds.wrap_lanes(&mut w);
                let cells = layout.cell_indices(&p);
                for l in 0..LANES {
                    let at = |x: &[Lane; 3]| V::from_axes([x[0][l], x[1][l], x[2][l]]);
                    let one = bounds.wrap(at(&p));
                    for axis in 0..V::DIM {
                        assert_eq!(bits(w[axis][l]), bits(one.axis(axis)), "{:?}", at(&p));
                    }
                    assert_eq!(cells[l] as usize, layout.cell_index(at(&p)), "{:?}", at(&p));
                }
            }
        }
    }

    #[test]
    fn a_group_wraps_and_finds_cells_as_one_boid_at_a_time_does() {
        for wrapped in [true, false] {
            wrap_and_cells_like_one_at_a_time(WorldBounds::centred(300.0, 200.0, wrapped));
            wrap_and_cells_like_one_at_a_time(WorldBounds::centred3(300.0, 200.0, 250.0, wrapped));
        }
    }
}
