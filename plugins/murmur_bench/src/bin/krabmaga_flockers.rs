//! krABMaga 0.6.2 running the ABM frameworks comparison's "Flocking" model (the model murmur's
//! `abm` preset implements), written on krABMaga's own API (State, Agent, Schedule, Field2D),
//! so the two can be timed on the same model. Bench-only; see README.md.
//!
//! Model, per bird and step: for each other bird within `vision` (strictly closer), with h the
//! nearest-image (periodic) offset to it: cohere += h, match += its velocity, separate -= h when
//! |h| < separation (strictly). Then vel += (cohere_factor cohere + separate_factor separate +
//! match_factor match) / max(n, 1), vel normalised (if that fails, the old direction), and
//! pos += speed vel, wrapped into [0, side). Birds read the previous step's positions and
//! velocities (krABMaga's Field2D is double-buffered), so all birds move at once.

use std::any::Any;
use std::cell::RefCell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::process::exit;
use std::time::Instant;

use krabmaga::engine::agent::Agent;
use krabmaga::engine::fields::field::Field;
use krabmaga::engine::fields::field_2d::{Field2D, Location2D};
use krabmaga::engine::location::Real2D;
use krabmaga::engine::schedule::Schedule;
use krabmaga::engine::state::State;
use krabmaga::rand::{Rng, SeedableRng};
use krabmaga::rand_pcg::Pcg64;

const KRABMAGA_VERSION: &str = "0.6.2";

/// The comparison's parameters (their names). `f32`, as krABMaga's `Real2D` is.
#[derive(Clone, Copy, Debug)]
struct Params {
    speed: f32,
    separation: f32,
    vision: f32,
    cohere_factor: f32,
    separate_factor: f32,
    match_factor: f32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            speed: 1.0,
            separation: 1.0,
            vision: 5.0,
            cohere_factor: 0.03,
            separate_factor: 0.015,
            match_factor: 0.05,
        }
    }
}

/// One bird: the scheduled agent, and (by value) the object stored in the field.
#[derive(Clone, Copy, Debug)]
struct Bird {
    id: u32,
    pos: Real2D,
    vel: Real2D,
}

impl Hash for Bird {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl PartialEq for Bird {
    fn eq(&self, other: &Bird) -> bool {
        self.id == other.id
    }
}

impl Eq for Bird {}

impl fmt::Display for Bird {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "bird {} at {}", self.id, self.pos)
    }
}

impl Location2D<Real2D> for Bird {
    fn get_location(self) -> Real2D {
        self.pos
    }
    fn set_location(&mut self, loc: Real2D) {
        self.pos = loc;
    }
}

/// The periodic world: its side, and the field's cell size.
#[derive(Clone, Copy, Debug)]
struct World {
    side: f32,
    /// Field2D's discretization: side / floor(side / vision) (nudged up by ulps so that the
    /// field's `ceil(side / cell)` is exactly that count), so the cells tile the torus exactly and
    /// are at least `vision` wide. Also the distance given to the relax query, so that it looks
    /// at the 3x3 cells around the bird, which hold every bird within `vision`.
    cell: f32,
    cells: u32,
}

impl World {
    fn new(side: f32, vision: f32) -> Result<World, String> {
        if !(side > 0.0 && side.is_finite()) {
            return Err(format!("bad side {side}"));
        }
        if !(vision > 0.0 && vision.is_finite()) {
            return Err(format!("bad vision {vision}"));
        }
        let cells = (side / vision).floor();
        if cells < 3.0 {
            // Fewer than 3 cells a side: the 3x3 query would visit a cell twice (and count its
            // birds twice), as krABMaga wraps the cell indices without removing repeats.
            return Err(format!(
                "side {side} is under 3 x vision {vision}: too small for the 3x3-cell query"
            ));
        }
        let m = cells as u32;
        let mut cell = side / cells;
        let next_up = |x: f32| f32::from_bits(x.to_bits() + 1);
        // Field2D discretizes x as floor(x / cell) and wraps cell indices modulo
        // ceil(side / cell): that must be m, and every x < side must land in a cell below m.
        let below_side = f32::from_bits(side.to_bits() - 1);
        while (side / cell).ceil() > cells || (below_side / cell).floor() >= cells {
            cell = next_up(cell);
        }
        debug_assert!(cell >= vision && (side / cell).ceil() == cells);
        Ok(World {
            side,
            cell,
            cells: m,
        })
    }

    /// Into [0, side).
    #[inline]
    fn wrap(&self, mut x: f32) -> f32 {
        if x < 0.0 {
            x += self.side;
        }
        if x >= self.side {
            x -= self.side;
        }
        x
    }

    /// The nearest-image offset for a difference of two coordinates in [0, side).
    #[inline]
    fn image(&self, d: f32) -> f32 {
        let half = 0.5 * self.side;
        if d > half {
            d - self.side
        } else if d < -half {
            d + self.side
        } else {
            d
        }
    }

    #[inline]
    fn offset(&self, from: Real2D, to: Real2D) -> Real2D {
        Real2D {
            x: self.image(to.x - from.x),
            y: self.image(to.y - from.y),
        }
    }
}

/// The simulation state krABMaga's Schedule steps.
struct Flock {
    agents: usize,
    params: Params,
    world: World,
    /// Passed to Field2D::new. krABMaga 0.6.2's neighbour queries *clamp* the cell range at the
    /// edges when this is true and wrap it (t_transform) when it is false, so `false` is what
    /// gives a periodic neighbour query; the periodic distances are ours (World::offset).
    field_toroidal: bool,
    seed: u64,
    field: Field2D<Bird>,
    /// Neighbours counted by the birds in the step under way, and in the last finished step.
    seen_now: u64,
    seen_last: u64,
}

impl Flock {
    fn new(agents: usize, params: Params, world: World, field_toroidal: bool, seed: u64) -> Flock {
        Flock {
            agents,
            params,
            world,
            field_toroidal,
            seed,
            field: Field2D::new(world.side, world.side, world.cell, field_toroidal),
            seen_now: 0,
            seen_last: 0,
        }
    }
}

impl State for Flock {
    fn init(&mut self, schedule: &mut Schedule) {
        self.reset();
        let side = self.world.side;
        let mut rng = Pcg64::seed_from_u64(self.seed);
        for id in 0..self.agents as u32 {
            let pos = Real2D {
                x: self.world.wrap(rng.random::<f32>() * side),
                y: self.world.wrap(rng.random::<f32>() * side),
            };
            let angle = rng.random::<f32>() * std::f32::consts::TAU;
            let vel = Real2D {
                x: angle.cos(),
                y: angle.sin(),
            };
            let bird = Bird { id, pos, vel };
            // Into the field's write buffer; the Schedule's first step swaps it in for reading.
            self.field.set_object_location(bird, pos);
            schedule.schedule_repeating(Box::new(bird), 0.0, 0);
        }
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_state_mut(&mut self) -> &mut dyn State {
        self
    }
    fn as_state(&self) -> &dyn State {
        self
    }

    fn reset(&mut self) {
        self.field = Field2D::new(
            self.world.side,
            self.world.side,
            self.world.cell,
            self.field_toroidal,
        );
        self.seen_now = 0;
        self.seen_last = 0;
    }

    /// Called by Schedule::step before step 0 and after every step: swap the field's buffers,
    /// so the positions written in this step are the ones read in the next.
    fn update(&mut self, _step: u64) {
        self.field.lazy_update();
        self.seen_last = self.seen_now;
        self.seen_now = 0;
    }
}

/// The sums over bird `me`'s neighbours (within vision) in the field's read buffer.
struct Sums {
    seen: u32,
    cohere: Real2D,
    separate: Real2D,
    matching: Real2D,
}

#[inline]
fn neighbour_sums(field: &Field2D<Bird>, world: &World, p: &Params, me: &Bird) -> Sums {
    let vision2 = p.vision * p.vision;
    let separation2 = p.separation * p.separation;
    let mut s = Sums {
        seen: 0,
        cohere: Real2D { x: 0.0, y: 0.0 },
        separate: Real2D { x: 0.0, y: 0.0 },
        matching: Real2D { x: 0.0, y: 0.0 },
    };
    // Every bird in the 3x3 cells around `me` (itself included), from the read buffer.
    for other in field.get_neighbors_within_relax_distance(me.pos, world.cell) {
        if other.id == me.id {
            continue;
        }
        let h = world.offset(me.pos, other.pos);
        let d2 = h.x * h.x + h.y * h.y;
        if d2 < vision2 {
            s.seen += 1;
            s.cohere.x += h.x;
            s.cohere.y += h.y;
            s.matching.x += other.vel.x;
            s.matching.y += other.vel.y;
            if d2 < separation2 {
                s.separate.x -= h.x;
                s.separate.y -= h.y;
            }
        }
    }
    s
}

impl Agent for Bird {
    fn step(&mut self, state: &mut dyn State) {
        let flock = state
            .as_any_mut()
            .downcast_mut::<Flock>()
            .expect("the state is a Flock");
        let (p, world) = (flock.params, flock.world);
        let s = neighbour_sums(&flock.field, &world, &p, self);
        flock.seen_now += u64::from(s.seen);

        let n = s.seen.max(1) as f32;
        let w = Real2D {
            x: self.vel.x
                + (p.cohere_factor * s.cohere.x
                    + p.separate_factor * s.separate.x
                    + p.match_factor * s.matching.x)
                    / n,
            y: self.vel.y
                + (p.cohere_factor * s.cohere.y
                    + p.separate_factor * s.separate.y
                    + p.match_factor * s.matching.y)
                    / n,
        };
        let len = (w.x * w.x + w.y * w.y).sqrt();
        if len.is_finite() && len > 0.0 {
            self.vel = Real2D {
                x: w.x / len,
                y: w.y / len,
            };
        } else {
            // Normalising failed: keep the old direction (unit already, up to rounding).
            let old = (self.vel.x * self.vel.x + self.vel.y * self.vel.y).sqrt();
            if old.is_finite() && old > 0.0 {
                self.vel = Real2D {
                    x: self.vel.x / old,
                    y: self.vel.y / old,
                };
            } else {
                self.vel = Real2D { x: 1.0, y: 0.0 };
            }
        }
        self.pos = Real2D {
            x: world.wrap(self.pos.x + p.speed * self.vel.x),
            y: world.wrap(self.pos.y + p.speed * self.vel.y),
        };
        // Into the write buffer: other birds see it after the step's update().
        flock.field.set_object_location(*self, self.pos);
    }
}

struct Run {
    ms: f64,
    mean_neighbours: f64,
    flock: Flock,
}

fn run_once(
    agents: usize,
    steps: u64,
    params: Params,
    world: World,
    toroidal: bool,
    seed: u64,
) -> Run {
    let mut flock = Flock::new(agents, params, world, toroidal, seed);
    let mut schedule = Schedule::new();
    flock.init(&mut schedule); // setup, not timed
    let started = Instant::now();
    for _ in 0..steps {
        schedule.step(&mut flock);
    }
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let mean_neighbours = flock.seen_last as f64 / agents.max(1) as f64;
    Run {
        ms,
        mean_neighbours,
        flock,
    }
}

/// --check: the final positions' neighbour counts through the field query against brute force.
fn check(flock: &Flock) {
    let birds = RefCell::new(Vec::with_capacity(flock.agents));
    flock.field.iter_objects(|_, b| birds.borrow_mut().push(*b));
    let birds = birds.into_inner();
    let (p, world) = (&flock.params, &flock.world);
    let vision2 = p.vision * p.vision;
    let mut field_total = 0u64;
    let mut brute_total = 0u64;
    let mut differ = 0usize;
    for me in &birds {
        let via_field = neighbour_sums(&flock.field, world, p, me).seen;
        let brute = birds
            .iter()
            .filter(|o| o.id != me.id)
            .filter(|o| {
                let h = world.offset(me.pos, o.pos);
                h.x * h.x + h.y * h.y < vision2
            })
            .count() as u32;
        field_total += u64::from(via_field);
        brute_total += u64::from(brute);
        differ += usize::from(via_field != brute);
    }
    let n = birds.len().max(1) as f64;
    eprintln!(
        "check ({} birds in the field, {} agents): mean neighbours at the final positions: field query {:.4}, brute force {:.4}; birds whose counts differ: {}",
        birds.len(),
        flock.agents,
        field_total as f64 / n,
        brute_total as f64 / n,
        differ
    );
}

const USAGE: &str = "\
krabmaga_flockers: times krABMaga 0.6.2 on the ABM comparison's Flocking model (single-threaded)

options:
  --sizes N,N,...     agent counts (default 1000,16000,128000)
  --steps S           steps per run (default 200)
  --repeats R         runs per size for sizes up to 20,000 agents; the median is `ms`
                      (default 5); larger sizes run once
  --vision V          vision radius (default 5)
  --side L            world side for every size (default 100*sqrt(N/200): the density of
                      200 birds on 100x100)
  --seed K            seed of the first run (default 1; repeat r uses K+r)
  --check             compare the field query's neighbour counts with brute force at the final
                      positions (sizes up to 20,000; printed on stderr)
  --field-toroidal    build Field2D with toroidal=true (krABMaga's edge-clamping query: birds
                      miss neighbours across the seam; for demonstration only)";

fn value<T: std::str::FromStr>(args: &[String], i: &mut usize, flag: &str) -> T {
    *i += 1;
    match args.get(*i).and_then(|v| v.parse().ok()) {
        Some(v) => v,
        None => {
            eprintln!("{flag} needs a value\n\n{USAGE}");
            exit(2);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut sizes: Vec<usize> = vec![1_000, 16_000, 128_000];
    let mut steps: u64 = 200;
    let mut repeats: usize = 5;
    let mut params = Params::default();
    let mut side: Option<f32> = None;
    let mut seed: u64 = 1;
    let mut do_check = false;
    let mut field_toroidal = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--sizes" => {
                let list: String = value(&args, &mut i, "--sizes");
                sizes = list
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        s.trim().replace('_', "").parse().unwrap_or_else(|_| {
                            eprintln!("bad size {s:?}");
                            exit(2)
                        })
                    })
                    .collect();
            }
            "--steps" => steps = value(&args, &mut i, "--steps"),
            "--repeats" => repeats = value::<usize>(&args, &mut i, "--repeats").max(1),
            "--vision" => params.vision = value(&args, &mut i, "--vision"),
            "--side" => side = Some(value(&args, &mut i, "--side")),
            "--seed" => seed = value(&args, &mut i, "--seed"),
            "--check" => do_check = true,
            "--field-toroidal" => field_toroidal = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => {
                eprintln!("unknown argument {other:?}\n\n{USAGE}");
                exit(2);
            }
        }
        i += 1;
    }

    for &agents in &sizes {
        if agents == 0 {
            eprintln!("skipping 0 agents");
            continue;
        }
        let side = side.unwrap_or_else(|| (100.0 * (agents as f64 / 200.0).sqrt()) as f32);
        let world = World::new(side, params.vision).unwrap_or_else(|e| {
            eprintln!("{e}");
            exit(2)
        });
        let runs = if agents <= 20_000 { repeats } else { 1 };
        let mut times = Vec::with_capacity(runs);
        let mut first: Option<Run> = None;
        for r in 0..runs {
            let run = run_once(
                agents,
                steps,
                params,
                world,
                field_toroidal,
                seed + r as u64,
            );
            times.push(run.ms);
            if first.is_none() {
                first = Some(run);
            }
        }
        let first = first.expect("at least one run");
        times.sort_by(|a, b| a.total_cmp(b));
        let median = if runs % 2 == 1 {
            times[runs / 2]
        } else {
            0.5 * (times[runs / 2 - 1] + times[runs / 2])
        };
        println!(
            "{{\"peer\":\"krabmaga\",\"version\":\"{KRABMAGA_VERSION}\",\"agents\":{agents},\"steps\":{steps},\"side\":{:.4},\"vision\":{:.1},\"ms\":{:.1},\"best_ms\":{:.1},\"runs\":{runs},\"mean_neighbours\":{:.4},\"threads\":1,\"real\":\"f32\",\"cell\":{:.4},\"cells\":{},\"field_toroidal\":{field_toroidal}}}",
            world.side,
            params.vision,
            median,
            times[0],
            first.mean_neighbours,
            world.cell,
            world.cells,
        );
        if do_check {
            if agents <= 20_000 {
                check(&first.flock);
            } else {
                eprintln!("check skipped for {agents} agents (brute force over 20,000)");
            }
        }
    }
}
