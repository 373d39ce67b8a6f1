//! The space a flock flies in: [`Vector`], implemented by glam's `Vec2` (a flat world) and
//! `Vec3` (a deep one, y up). Every flock type takes it as a type parameter that defaults to
//! `Vec2`; the maths is written once, and each dimension's code is compiled on its own, so the
//! 2D flock runs the very operations it always ran.

use crate::grid::NeighbourGrid;
use crate::metrics::FlockMetrics;
use crate::params::FlockParams;
use crate::predator::PredatorState;
use crate::sim::{FlockSim, LeaderState};
use crate::sorted::SortedFlock;
use crate::world::WorldBounds;
use glam::{DVec3, Vec2, Vec3};
use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

mod sealed {
    /// Only glam's `Vec2` and `Vec3` are spaces.
    pub trait Sealed {}
    impl Sealed for glam::Vec2 {}
    impl Sealed for glam::Vec3 {}
}

/// A position, velocity or acceleration in a flock's space: `Vec2` or `Vec3`.
///
/// The methods are glam's own (same operations, same bits), plus the few things that differ
/// between a plane and a volume: random directions, turning by an angle, and the axis of an
/// orbit. In 3D, y is up (Bevy's convention): the ground is a horizontal plane of constant y.
pub trait Vector:
    sealed::Sealed
    + Copy
    + Debug
    + Default
    + PartialEq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Mul<f32, Output = Self>
    + Div<f32, Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign<f32>
    + DivAssign<f32>
{
    /// Number of axes: 2 or 3.
    const DIM: usize;
    /// All zeros.
    const ZERO: Self;
    /// All ones.
    const ONE: Self;
    /// The unit x axis.
    const X: Self;
    /// The unit y axis (up, in 3D).
    const Y: Self;
    /// The name of the space, for messages: `"2D"` or `"3D"`.
    const NAME: &'static str;
    /// An array with room for the spans of one block of neighbour cells (9 in 2D, 27 in 3D).
    type Blocks<T: Copy + Default + Debug + Send + Sync>: Copy
        + Debug
        + Default
        + Send
        + Sync
        + AsRef<[T]>
        + AsMut<[T]>;

    /// Every axis `v`.
    fn splat(v: f32) -> Self;
    /// Axis `a` (0: x, 1: y, 2: z).
    fn axis(self, a: usize) -> f32;
    /// Axis `a`, to change.
    fn axis_mut(&mut self, a: usize) -> &mut f32;
    /// A vector from its axes (the third ignored in 2D).
    fn from_axes(axes: [f32; 3]) -> Self;
    /// The axes, z = 0 in 2D.
    fn to_axes(self) -> [f32; 3] {
        let mut out = [0.0; 3];
        for (a, o) in out.iter_mut().enumerate().take(Self::DIM) {
            *o = self.axis(a);
        }
        out
    }
    /// As a `Vec3` (z = 0 in 2D).
    fn to_vec3(self) -> Vec3 {
        Vec3::from_array(self.to_axes())
    }
    /// From a `Vec3` (its z dropped in 2D).
    fn from_vec3(v: Vec3) -> Self {
        Self::from_axes(v.to_array())
    }
    /// As a `Vec2`: x and y.
    fn to_vec2(self) -> Vec2 {
        Vec2::new(self.axis(0), self.axis(1))
    }
    /// From a `Vec2` (z = 0 in 3D).
    fn from_vec2(v: Vec2) -> Self {
        Self::from_axes([v.x, v.y, 0.0])
    }
    /// As doubles, in a `DVec3` (z = 0 in 2D).
    fn as_dvec3(self) -> DVec3 {
        self.to_vec3().as_dvec3()
    }

    /// Dot product.
    fn dot(self, o: Self) -> f32;
    /// Length.
    fn length(self) -> f32;
    /// Squared length.
    fn length_squared(self) -> f32;
    /// 1 / length.
    fn length_recip(self) -> f32;
    /// Unit vector, or zero when it has no direction.
    fn normalize_or_zero(self) -> Self;
    /// Unit vector, or `fallback` when it has no direction.
    fn normalize_or(self, fallback: Self) -> Self;
    /// Unit vector, when it has a direction.
    fn try_normalize(self) -> Option<Self>;
    /// The vector, shortened to at most `max`.
    fn clamp_length_max(self, max: f32) -> Self;
    /// True when every axis is finite.
    fn is_finite(self) -> bool;
    /// Axis by axis minimum.
    fn min(self, o: Self) -> Self;
    /// Axis by axis maximum.
    fn max(self, o: Self) -> Self;
    /// Axis by axis absolute value.
    fn abs(self) -> Self;
    /// Axis by axis rounding.
    fn round(self) -> Self;
    /// Axis by axis Euclidean remainder.
    fn rem_euclid(self, o: Self) -> Self;
    /// Axis by axis reciprocal.
    fn recip(self) -> Self;
    /// True when every axis is `>=` the other's.
    fn all_ge(self, o: Self) -> bool;
    /// True when every axis is `<` the other's.
    fn all_lt(self, o: Self) -> bool;
    /// True when every axis is `<=` the other's.
    fn all_le(self, o: Self) -> bool;
    /// The product of the axes (area or volume).
    fn product(self) -> f32;

    /// A uniform direction from a uniform number `u` in `[0, 1)` and, in 3D, a second one `w`:
    /// an angle round the circle, or a point on the sphere.
    fn direction_from(u: f32, w: f32) -> Self;
    /// [`Vector::direction_from`] with `sin` and `cos` from Rust's own maths library, the same
    /// bits on every platform: a first flock's directions, so that the web page and the native
    /// app start from the same flock for a seed.
    fn first_direction(u: f32, w: f32) -> Self;
    /// `dir` (a unit vector) turned towards `to` (a unit vector) by at most `max_angle`
    /// radians; `to` itself when it is closer than that.
    fn turn_towards(dir: Self, to: Self, max_angle: f32) -> Self;
    /// `dir` (a unit vector) turned by `angle` radians: in 2D counter-clockwise, in 3D away
    /// from itself in the direction `spin` radians round it (a random rotation within a cone
    /// when `spin` is uniform).
    fn deflect(dir: Self, angle: f32, spin: f32) -> Self;
    /// The direction of travel of a point circling counter-clockwise about `axis` (a unit
    /// vector; 2D ignores it and circles about the plane's normal) when `outward` is the unit
    /// direction from the centre to the point. Zero when `outward` lies along the axis.
    fn orbit_tangent(outward: Self, axis: Vec3) -> Self;

    // The tick's passes, compiled in this crate once for each space. The flock types are
    // generic over the space, and Rust compiles a generic function in the crate that calls it,
    // with that crate's optimisation level: a debug build of a program would run the flock at
    // its own (low) level. Each public pass therefore calls through these methods, ordinary
    // functions of this crate (one per space), built at its level (`opt-level = 3` even in
    // debug builds of the workspace). Not for use outside the crate.
    /// The tick's pass [`SortedFlock::sort`].
    #[doc(hidden)]
    fn sorted_sort(f: &mut SortedFlock<Self>, p: &FlockParams);
    /// The tick's pass [`SortedFlock::steer`].
    #[doc(hidden)]
    fn sorted_steer(f: &mut SortedFlock<Self>, p: &FlockParams);
    /// The tick's pass [`SortedFlock::follow_leaders`].
    #[doc(hidden)]
    fn sorted_follow_leaders(f: &mut SortedFlock<Self>, p: &FlockParams, l: &[LeaderState<Self>]);
    /// The tick's pass [`SortedFlock::flee_predators`].
    #[doc(hidden)]
    fn sorted_flee_predators(
        f: &mut SortedFlock<Self>,
        p: &FlockParams,
        predators: &[PredatorState<Self>],
    );
    /// The tick's pass [`SortedFlock::avoid_solids`].
    #[doc(hidden)]
    fn sorted_avoid_solids(f: &mut SortedFlock<Self>, p: &FlockParams);
    /// The tick's pass [`SortedFlock::turn_at_edges`].
    #[doc(hidden)]
    fn sorted_turn_at_edges(f: &mut SortedFlock<Self>, p: &FlockParams);
    /// The tick's pass [`SortedFlock::integrate`].
    #[doc(hidden)]
    fn sorted_integrate(f: &mut SortedFlock<Self>, p: &FlockParams);
    /// The tick's pass [`SortedFlock::step`].
    #[doc(hidden)]
    fn sorted_step(
        f: &mut SortedFlock<Self>,
        p: &FlockParams,
        l: &[LeaderState<Self>],
        predators: &[PredatorState<Self>],
    );
    /// The tick's pass [`FlockSim::step`].
    #[doc(hidden)]
    fn sim_step(s: &mut FlockSim<Self>);
    /// The tick's pass [`FlockMetrics::measure`].
    #[doc(hidden)]
    fn measure(grid: &NeighbourGrid<Self>, p: &FlockParams) -> FlockMetrics;
    /// The tick's pass [`NeighbourGrid::rebuild`].
    #[doc(hidden)]
    fn grid_rebuild(
        grid: &mut NeighbourGrid<Self>,
        bounds: &WorldBounds<Self>,
        radius: f32,
        positions: &[Self],
        velocities: &[Self],
    );
    /// The tick's pass [`NeighbourGrid::resort`].
    #[doc(hidden)]
    fn grid_resort(
        grid: &mut NeighbourGrid<Self>,
        bounds: &WorldBounds<Self>,
        radius: f32,
        keys: &[u32],
    );
}

macro_rules! compiled_methods {
    () => {
        fn sorted_sort(f: &mut SortedFlock<Self>, p: &FlockParams) {
            f.sort_here(p)
        }
        fn sorted_steer(f: &mut SortedFlock<Self>, p: &FlockParams) {
            f.steer_here(p)
        }
        fn sorted_follow_leaders(
            f: &mut SortedFlock<Self>,
            p: &FlockParams,
            l: &[LeaderState<Self>],
        ) {
            f.follow_leaders_here(p, l)
        }
        fn sorted_flee_predators(
            f: &mut SortedFlock<Self>,
            p: &FlockParams,
            predators: &[PredatorState<Self>],
        ) {
            f.flee_predators_here(p, predators)
        }
        fn sorted_avoid_solids(f: &mut SortedFlock<Self>, p: &FlockParams) {
            f.avoid_solids_here(p)
        }
        fn sorted_turn_at_edges(f: &mut SortedFlock<Self>, p: &FlockParams) {
            f.turn_at_edges_here(p)
        }
        fn sorted_integrate(f: &mut SortedFlock<Self>, p: &FlockParams) {
            f.integrate_here(p)
        }
        fn sorted_step(
            f: &mut SortedFlock<Self>,
            p: &FlockParams,
            l: &[LeaderState<Self>],
            predators: &[PredatorState<Self>],
        ) {
            f.step_here(p, l, predators)
        }
        fn sim_step(s: &mut FlockSim<Self>) {
            s.step_here()
        }
        fn measure(grid: &NeighbourGrid<Self>, p: &FlockParams) -> FlockMetrics {
            FlockMetrics::measure_here(grid, p)
        }
        fn grid_rebuild(
            grid: &mut NeighbourGrid<Self>,
            bounds: &WorldBounds<Self>,
            radius: f32,
            positions: &[Self],
            velocities: &[Self],
        ) {
            grid.rebuild_here(bounds, radius, positions, velocities)
        }
        fn grid_resort(
            grid: &mut NeighbourGrid<Self>,
            bounds: &WorldBounds<Self>,
            radius: f32,
            keys: &[u32],
        ) {
            grid.resort_here(bounds, radius, keys)
        }
    };
}

macro_rules! glam_methods {
    () => {
        #[inline(always)]
        fn splat(v: f32) -> Self {
            Self::splat(v)
        }
        #[inline(always)]
        fn axis(self, a: usize) -> f32 {
            self[a]
        }
        #[inline(always)]
        fn axis_mut(&mut self, a: usize) -> &mut f32 {
            &mut self[a]
        }
        #[inline(always)]
        fn dot(self, o: Self) -> f32 {
            Self::dot(self, o)
        }
        #[inline(always)]
        fn length(self) -> f32 {
            Self::length(self)
        }
        #[inline(always)]
        fn length_squared(self) -> f32 {
            Self::length_squared(self)
        }
        #[inline(always)]
        fn length_recip(self) -> f32 {
            Self::length_recip(self)
        }
        #[inline(always)]
        fn normalize_or_zero(self) -> Self {
            Self::normalize_or_zero(self)
        }
        #[inline(always)]
        fn normalize_or(self, fallback: Self) -> Self {
            Self::normalize_or(self, fallback)
        }
        #[inline(always)]
        fn try_normalize(self) -> Option<Self> {
            Self::try_normalize(self)
        }
        #[inline(always)]
        fn clamp_length_max(self, max: f32) -> Self {
            Self::clamp_length_max(self, max)
        }
        #[inline(always)]
        fn is_finite(self) -> bool {
            Self::is_finite(self)
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            Self::min(self, o)
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            Self::max(self, o)
        }
        #[inline(always)]
        fn abs(self) -> Self {
            Self::abs(self)
        }
        #[inline(always)]
        fn round(self) -> Self {
            Self::round(self)
        }
        #[inline(always)]
        fn rem_euclid(self, o: Self) -> Self {
            Self::rem_euclid(self, o)
        }
        #[inline(always)]
        fn recip(self) -> Self {
            Self::recip(self)
        }
        #[inline(always)]
        fn all_ge(self, o: Self) -> bool {
            self.cmpge(o).all()
        }
        #[inline(always)]
        fn all_lt(self, o: Self) -> bool {
            self.cmplt(o).all()
        }
        #[inline(always)]
        fn all_le(self, o: Self) -> bool {
            self.cmple(o).all()
        }
        #[inline(always)]
        fn product(self) -> f32 {
            self.element_product()
        }
    };
}

/// A uniform point on the unit sphere from two uniform numbers in `[0, 1)`: the height uniform in
/// [-1, 1] (Archimedes), the angle round it uniform; `sin_cos` gives the angle's sine and cosine.
#[inline]
fn sphere_point(u: f32, w: f32, sin_cos: fn(f32) -> (f32, f32)) -> Vec3 {
    let y = 1.0 - 2.0 * w;
    let r = (1.0 - y * y).max(0.0).sqrt();
    let (sin, cos) = sin_cos(u * std::f32::consts::TAU);
    Vec3::new(r * cos, y, r * sin)
}

/// `sin` and `cos` of `x` from Rust's own maths library (the `libm` crate) on every platform,
/// where `f32::sin_cos` calls the platform's: glibc's and the wasm build's differ in the last
/// bit for about one angle in forty of those a first flock is drawn from, so the web page would
/// start from another flock than the native app for the same seed ([`Vector::first_direction`]).
/// The ticks of reynolds, cornell and abm use only `+ - * /` and square roots; the models with
/// noise (SpaceBoids' wander, Couzin, Vicsek) and the starlings' first flock still use the
/// platform's `sin` and `cos` (their pinned results are glibc's).
#[inline]
fn portable_sin_cos(x: f32) -> (f32, f32) {
    libm::sincosf(x)
}

impl Vector for Vec2 {
    const DIM: usize = 2;
    const ZERO: Self = Vec2::ZERO;
    const ONE: Self = Vec2::ONE;
    const X: Self = Vec2::X;
    const Y: Self = Vec2::Y;
    const NAME: &'static str = "2D";
    type Blocks<T: Copy + Default + Debug + Send + Sync> = [T; 9];

    glam_methods!();
    compiled_methods!();

    #[inline(always)]
    fn from_axes(axes: [f32; 3]) -> Self {
        Vec2::new(axes[0], axes[1])
    }

    #[inline]
    fn direction_from(u: f32, _w: f32) -> Self {
        Vec2::from_angle(u * std::f32::consts::TAU)
    }

    #[inline]
    fn first_direction(u: f32, _w: f32) -> Self {
        let (sin, cos) = portable_sin_cos(u * std::f32::consts::TAU);
        Vec2::new(cos, sin)
    }

    #[inline]
    fn turn_towards(dir: Self, to: Self, max_angle: f32) -> Self {
        let turn = dir.angle_to(to).clamp(-max_angle, max_angle);
        Vec2::from_angle(turn).rotate(dir)
    }

    #[inline]
    fn deflect(dir: Self, angle: f32, _spin: f32) -> Self {
        Vec2::from_angle(angle).rotate(dir)
    }

    #[inline]
    fn orbit_tangent(outward: Self, _axis: Vec3) -> Self {
        outward.perp()
    }
}

impl Vector for Vec3 {
    const DIM: usize = 3;
    const ZERO: Self = Vec3::ZERO;
    const ONE: Self = Vec3::ONE;
    const X: Self = Vec3::X;
    const Y: Self = Vec3::Y;
    const NAME: &'static str = "3D";
    type Blocks<T: Copy + Default + Debug + Send + Sync> = [T; 27];

    glam_methods!();
    compiled_methods!();

    #[inline(always)]
    fn from_axes(axes: [f32; 3]) -> Self {
        Vec3::from_array(axes)
    }

    #[inline]
    fn direction_from(u: f32, w: f32) -> Self {
        sphere_point(u, w, f32::sin_cos)
    }

    #[inline]
    fn first_direction(u: f32, w: f32) -> Self {
        sphere_point(u, w, portable_sin_cos)
    }

    #[inline]
    fn turn_towards(dir: Self, to: Self, max_angle: f32) -> Self {
        let cos = dir.dot(to).clamp(-1.0, 1.0);
        let angle = cos.acos();
        // Within reach (or not a number: keep the target, as 2D's clamp does).
        if angle.partial_cmp(&max_angle) != Some(std::cmp::Ordering::Greater) {
            return if angle.is_finite() { to } else { dir };
        }
        // Rotate `dir` by `max_angle` in the plane of the two; straight back, about any axis
        // square to `dir`.
        let side = (to - dir * cos)
            .try_normalize()
            .unwrap_or_else(|| dir.any_orthonormal_vector());
        let (sin, cos) = max_angle.sin_cos();
        (dir * cos + side * sin).normalize_or(dir)
    }

    #[inline]
    fn deflect(dir: Self, angle: f32, spin: f32) -> Self {
        let (u, w) = dir.any_orthonormal_pair();
        let (ss, cs) = spin.sin_cos();
        let side = u * cs + w * ss;
        let (sa, ca) = angle.sin_cos();
        (dir * ca + side * sa).normalize_or(dir)
    }

    #[inline]
    fn orbit_tangent(outward: Self, axis: Vec3) -> Self {
        axis.cross(outward).normalize_or_zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_are_unit_and_spread_over_the_sphere() {
        let mut mean = Vec3::ZERO;
        let n = 20_000;
        for i in 0..n {
            let (u, w) = ((i as f32 * 0.618_034) % 1.0, (i as f32 + 0.5) / n as f32);
            let d = Vec3::direction_from(u, w);
            assert!((d.length() - 1.0).abs() < 1e-5, "{d}");
            mean += d;
        }
        assert!((mean / n as f32).length() < 0.01, "{mean}");
    }

    #[test]
    fn turning_is_limited_and_lands_on_near_targets() {
        let d = Vec3::X;
        let near = Vec3::new(1.0, 0.05, 0.0).normalize();
        assert!((Vec3::turn_towards(d, near, 0.2) - near).length() < 1e-6);
        let up = Vec3::Y;
        let turned = Vec3::turn_towards(d, up, 0.3);
        assert!((turned.angle_between(d) - 0.3).abs() < 1e-5);
        assert!(turned.z.abs() < 1e-6, "in the plane of the two: {turned}");
        let back = Vec3::turn_towards(d, -d, 0.5);
        assert!((back.angle_between(d) - 0.5).abs() < 1e-4, "{back}");
        // The 2D turn agrees on the angle.
        let flat = Vec2::turn_towards(Vec2::X, Vec2::Y, 0.3);
        assert!((flat.angle_to(Vec2::X).abs() - 0.3).abs() < 1e-6);
    }

    #[test]
    fn a_deflection_keeps_the_angle_whatever_the_spin() {
        let d = Vec3::new(0.3, -0.5, 0.8).normalize();
        for spin in [0.0, 1.0, 2.5, 4.0] {
            let e = Vec3::deflect(d, 0.4, spin);
            assert!((e.angle_between(d) - 0.4).abs() < 1e-4, "{spin}");
        }
        assert_eq!(Vec2::deflect(Vec2::X, 0.0, 3.0), Vec2::X);
    }

    #[test]
    fn orbits_run_counter_clockwise_about_the_axis() {
        // Seen from above (+y), counter-clockwise about +y at +x runs towards -z.
        let t = Vec3::orbit_tangent(Vec3::X, Vec3::Y);
        assert!((t - Vec3::NEG_Z).length() < 1e-6, "{t}");
        // In 2D about the plane's normal, as glam's perp.
        assert_eq!(Vec2::orbit_tangent(Vec2::X, Vec3::Z), Vec2::Y);
        assert_eq!(Vec3::orbit_tangent(Vec3::Y, Vec3::Y), Vec3::ZERO);
    }
}
