//! The panel's slider table: what each numeric preset parameter means to a person (its unit, a
//! sensible range for a slider, one line of help). Names are the preset file's `table.field`;
//! the flock's maths never reads this table, so it lives with the panel, not in murmur_core.

/// One parameter's description.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamInfo {
    /// `table.field`, as in preset files and `--set`.
    pub name: &'static str,
    /// Unit, for people ("px", "px/tick", "rad", ...); empty when it has none.
    pub unit: &'static str,
    /// Slider range.
    pub min: f64,
    /// Slider range.
    pub max: f64,
    /// Whole numbers only.
    pub integer: bool,
    /// One line for a tooltip.
    pub help: &'static str,
}

const fn p(
    name: &'static str,
    unit: &'static str,
    min: f64,
    max: f64,
    help: &'static str,
) -> ParamInfo {
    ParamInfo {
        name,
        unit,
        min,
        max,
        integer: false,
        help,
    }
}

const fn int(
    name: &'static str,
    unit: &'static str,
    min: f64,
    max: f64,
    help: &'static str,
) -> ParamInfo {
    ParamInfo {
        integer: true,
        ..p(name, unit, min, max, help)
    }
}

/// Every numeric parameter the panel offers.
pub const PARAMS: &[ParamInfo] = &[
    int(
        "world.max_neighbours",
        "birds",
        0.0,
        256.0,
        "Most neighbours a bird considers, nearest cells first (0: all)",
    ),
    p(
        "edges.margin",
        "px",
        0.0,
        500.0,
        "Distance from each edge where birds start turning back (turn edges)",
    ),
    p(
        "edges.turn_factor",
        "px/tick²",
        0.0,
        2.0,
        "Velocity change per tick inside the margin (turn edges)",
    ),
    p(
        "leader.orbit_radius",
        "px",
        0.0,
        500.0,
        "Radius of the circle the flock settles on around a leader",
    ),
    p(
        "leader.slowing_radius",
        "px",
        1.0,
        500.0,
        "Band around the circle where birds turn from seeking to circling",
    ),
    p(
        "leader.max_force",
        "px/tick²",
        0.0,
        1.0,
        "Largest steering change per tick towards a leader",
    ),
    p(
        "leader.weight",
        "",
        0.0,
        5.0,
        "Weight of the leader's pull against the flock's own rules",
    ),
    p(
        "leader.flee_radius",
        "px",
        0.0,
        1000.0,
        "Birds closer than this flee a fleeing leader",
    ),
    p(
        "leader.flee_force",
        "px/tick²",
        0.0,
        2.0,
        "Largest steering change per tick while fleeing",
    ),
    p(
        "leader.follow_range",
        "px",
        0.0,
        2000.0,
        "Birds farther than this ignore the leader (0: all follow)",
    ),
    p(
        "view.blind_angle",
        "deg",
        0.0,
        360.0,
        "Degrees behind each bird that it cannot see (not couzin or starlings: they have their own)",
    ),
    p(
        "predator.range",
        "px",
        0.0,
        400.0,
        "Birds closer than this to a predator flee it",
    ),
    p(
        "predator.flee_factor",
        "px/tick²",
        0.0,
        2.0,
        "How hard a fleeing bird turns away, per axis and tick",
    ),
    p(
        "predator.hunt_speed",
        "px/tick",
        0.0,
        12.0,
        "Top speed of a hunting predator",
    ),
    p(
        "predator.hunt_force",
        "px/tick²",
        0.0,
        2.0,
        "How sharply a hunting predator turns after its prey",
    ),
    p(
        "avoidance.look_ahead",
        "ticks",
        0.0,
        120.0,
        "How far ahead birds look for obstacles, in ticks of flight",
    ),
    p(
        "avoidance.force",
        "px/tick²",
        0.0,
        2.0,
        "Largest steering change per tick to get round an obstacle",
    ),
    p(
        "avoidance.clearance",
        "px",
        0.0,
        20.0,
        "A bird's radius against obstacles: it never comes closer",
    ),
    p(
        "bodies.bird_radius",
        "px",
        0.5,
        20.0,
        "Radius of a bird's body in physical mode",
    ),
    p(
        "reynolds.max_speed",
        "px/tick",
        0.1,
        10.0,
        "Top speed; every desired velocity has this length",
    ),
    p(
        "reynolds.max_force",
        "px/tick²",
        0.001,
        0.5,
        "Largest steering change per tick from alignment and cohesion",
    ),
    p(
        "reynolds.separation_force_factor",
        "x",
        0.0,
        5.0,
        "Separation may steer this many times max_force (1.2 in the sketch)",
    ),
    p(
        "reynolds.perception_radius",
        "px",
        1.0,
        200.0,
        "Neighbours closer than this are aligned with and drawn towards",
    ),
    p(
        "reynolds.separation_radius",
        "px",
        0.0,
        100.0,
        "Neighbours closer than this push away, weighted 1/d²",
    ),
    p(
        "reynolds.separation_weight",
        "",
        0.0,
        5.0,
        "Weight of separation",
    ),
    p(
        "reynolds.alignment_weight",
        "",
        0.0,
        5.0,
        "Weight of alignment",
    ),
    p(
        "reynolds.cohesion_weight",
        "",
        0.0,
        5.0,
        "Weight of cohesion",
    ),
    p(
        "cornell.visual_range",
        "px",
        1.0,
        200.0,
        "Other boids within this distance count for matching and centering",
    ),
    p(
        "cornell.protected_range",
        "px",
        0.0,
        50.0,
        "Other boids within this distance are avoided",
    ),
    p(
        "cornell.centering_factor",
        "1/tick",
        0.0,
        0.01,
        "Pull towards the neighbours' centre of mass",
    ),
    p(
        "cornell.avoid_factor",
        "1/tick",
        0.0,
        0.5,
        "Push away from boids inside the protected range",
    ),
    p(
        "cornell.matching_factor",
        "1/tick",
        0.0,
        0.5,
        "Pull towards the neighbours' mean velocity",
    ),
    p(
        "cornell.max_speed",
        "px/tick",
        0.0,
        20.0,
        "Speeds are clamped to at most this",
    ),
    p(
        "cornell.min_speed",
        "px/tick",
        0.0,
        20.0,
        "Speeds are clamped to at least this",
    ),
    p(
        "spaceboids.sight_range",
        "px",
        1.0,
        200.0,
        "Boids within this distance count for the average position and heading",
    ),
    p(
        "spaceboids.near_range",
        "px",
        0.0,
        100.0,
        "Boids within this distance are avoided",
    ),
    p(
        "spaceboids.random_weight",
        "",
        0.0,
        3.0,
        "Weight of the wandering random direction",
    ),
    p(
        "spaceboids.position_weight",
        "",
        0.0,
        3.0,
        "Weight of the direction towards the average position",
    ),
    p(
        "spaceboids.avoid_weight",
        "",
        0.0,
        3.0,
        "Weight of the direction away from near boids",
    ),
    p(
        "spaceboids.heading_weight",
        "",
        0.0,
        3.0,
        "Weight of the average heading",
    ),
    int(
        "spaceboids.random_interval_ticks",
        "ticks",
        1.0,
        300.0,
        "Ticks between changes of the random direction (30 = 0.5 s)",
    ),
    p(
        "spaceboids.thrust",
        "px/tick²",
        0.0,
        1.0,
        "Acceleration along the heading",
    ),
    p(
        "spaceboids.drag",
        "1/tick",
        0.0,
        0.2,
        "Fraction of velocity lost per tick",
    ),
    p("spaceboids.max_speed", "px/tick", 0.0, 10.0, "Top speed"),
    p(
        "vicsek.speed",
        "units/tick",
        0.0,
        0.5,
        "Speed v of every particle (0.03 in the paper)",
    ),
    p(
        "vicsek.radius",
        "units",
        0.05,
        5.0,
        "Interaction radius r (1 in the paper)",
    ),
    p(
        "vicsek.eta",
        "rad",
        0.0,
        std::f64::consts::TAU,
        "Noise: each heading gets a uniform angle in [-eta/2, eta/2]",
    ),
    p(
        "couzin.r_r",
        "units",
        0.0,
        5.0,
        "Radius of the zone of repulsion",
    ),
    p(
        "couzin.delta_r_o",
        "units",
        0.0,
        20.0,
        "Width of the zone of orientation",
    ),
    p(
        "couzin.delta_r_a",
        "units",
        0.0,
        20.0,
        "Width of the zone of attraction",
    ),
    p(
        "couzin.blind_angle",
        "deg",
        0.0,
        360.0,
        "Angle straight behind that is not seen",
    ),
    p(
        "couzin.turning_rate",
        "deg/s",
        0.0,
        360.0,
        "Maximum turning rate",
    ),
    p("couzin.speed", "units/s", 0.0, 20.0, "Speed"),
    p(
        "couzin.noise",
        "rad",
        0.0,
        1.0,
        "Standard deviation of the rotational noise",
    ),
    p("couzin.time_step", "s", 0.01, 1.0, "Time per tick"),
    p(
        "abm.speed",
        "units/step",
        0.0,
        5.0,
        "Distance moved per step",
    ),
    p(
        "abm.separation",
        "units",
        0.0,
        10.0,
        "Neighbours closer than this push away",
    ),
    p(
        "abm.vision",
        "units",
        0.1,
        50.0,
        "Neighbours within this distance count",
    ),
    p(
        "abm.cohere_factor",
        "",
        0.0,
        0.5,
        "Weight of the summed offsets",
    ),
    p(
        "abm.separate_factor",
        "",
        0.0,
        0.5,
        "Weight of the summed pushes",
    ),
    p(
        "abm.match_factor",
        "",
        0.0,
        0.5,
        "Weight of the summed velocities",
    ),
    p("starlings.time_step", "s", 0.001, 0.1, "Time per tick"),
    p("starlings.mass", "kg", 0.01, 1.0, "Mass of a bird"),
    p(
        "starlings.cruise_speed",
        "m/s",
        0.0,
        30.0,
        "Speed each bird relaxes to",
    ),
    p(
        "starlings.speed_relaxation",
        "s",
        0.05,
        10.0,
        "Time the speed takes to relax to cruise",
    ),
    p(
        "starlings.max_bank",
        "deg",
        0.0,
        89.0,
        "Steepest bank: the sharpest turn is g tan(bank)",
    ),
    p(
        "starlings.topological_range",
        "birds",
        0.0,
        32.0,
        "Neighbours each bird heeds, on average (n_c)",
    ),
    p(
        "starlings.max_radius",
        "m",
        0.1,
        500.0,
        "Farthest a heeded neighbour may be (R_max)",
    ),
    p(
        "starlings.cell",
        "m",
        0.2,
        50.0,
        "Grid cell side (speed only: the same neighbours)",
    ),
    p(
        "starlings.hard_core",
        "m",
        0.0,
        2.0,
        "Within this a neighbour repels at full strength",
    ),
    p(
        "starlings.separation_radius",
        "m",
        0.0,
        20.0,
        "Beyond this a neighbour does not repel",
    ),
    p(
        "starlings.separation_sigma",
        "m",
        0.05,
        10.0,
        "Width of the repulsion's fall-off",
    ),
    p(
        "starlings.separation_weight",
        "N",
        0.0,
        5.0,
        "Push from each neighbour that is too close",
    ),
    p(
        "starlings.alignment_weight",
        "N",
        0.0,
        5.0,
        "Weight of turning to the neighbours' heading",
    ),
    p(
        "starlings.cohesion_weight",
        "N",
        0.0,
        5.0,
        "Weight of the pull to the neighbours (times centrality)",
    ),
    p(
        "starlings.critical_centrality",
        "",
        0.0,
        0.99,
        "Centrality above which cohesion acts (0: inside, 1: edge)",
    ),
    p(
        "starlings.random_weight",
        "N",
        0.0,
        1.0,
        "Size of the random force",
    ),
    p(
        "starlings.blind_angle",
        "deg",
        0.0,
        360.0,
        "Angle straight behind that is not seen",
    ),
    p(
        "starlings.roost_radius",
        "m",
        0.0,
        1000.0,
        "No pull back to the roost within this",
    ),
    p(
        "starlings.roost_pull",
        "N/m",
        0.0,
        0.1,
        "Pull back per metre outside the roost's radius",
    ),
    p(
        "starlings.roost_height",
        "m",
        -500.0,
        500.0,
        "Height the birds prefer",
    ),
    p(
        "starlings.height_pull",
        "N/m",
        0.0,
        0.1,
        "Pull per metre off that height",
    ),
    p(
        "starlings.max_height_pull",
        "N",
        0.0,
        2.0,
        "Most that pull can be",
    ),
    p(
        "starlings.start_spread",
        "deg",
        0.0,
        360.0,
        "Headings the birds start in (a cone about +x)",
    ),
];

/// The description of `name` (`table.field`).
pub fn info(name: &str) -> Option<&'static ParamInfo> {
    PARAMS.iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use murmur_flock::murmur_core::preset::{BUILTIN_PRESETS, Preset};

    #[test]
    fn every_described_parameter_exists_and_every_default_fits_its_range() {
        for (name, _) in BUILTIN_PRESETS {
            let preset = Preset::load(name).unwrap();
            let names = preset.parameter_names();
            for info in PARAMS
                .iter()
                .filter(|p| p.name.starts_with(&format!("{}.", preset.model.name())))
            {
                assert!(
                    names.iter().any(|n| n == info.name),
                    "{} is not a parameter",
                    info.name
                );
                let value = preset.value(info.name).unwrap();
                assert!(
                    (info.min..=info.max).contains(&value),
                    "{}: {value} outside its range",
                    info.name
                );
            }
        }
    }

    #[test]
    fn every_numeric_model_parameter_is_described() {
        for (name, _) in BUILTIN_PRESETS {
            let preset = Preset::load(name).unwrap();
            for n in preset.parameter_names() {
                let table = n.split('.').next().unwrap();
                if table == preset.model.name() && preset.value(&n).is_some() {
                    assert!(info(&n).is_some(), "{n} has no description");
                }
            }
        }
    }
}
