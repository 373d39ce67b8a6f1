//! How fast the ABM frameworks comparison's "Flocking" benchmark can run here at all: the same
//! model in the plainest fast form (one model, one world, the 3x3 cells of the grid, AVX-512,
//! none of `FastFlock`'s generality or its bit-for-bit agreement with murmur's other paths),
//! timed in turns with `FastFlock` as `murmur bench --only abm` times it (a fresh flock and 100
//! steps a run, one thread, the median of the runs):
//! `cargo run --release --manifest-path plugins/murmur_bench/Cargo.toml --example abmfloor -- small 100` (size, runs).
//!
//! A floor to hold `FastFlock`'s figure against, and any target for it: what a tick of this
//! model costs on this CPU when nothing else is asked of it.

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    eprintln!("abmfloor needs an x86-64 CPU with AVX-512 (F, VL), BMI2 and POPCNT");
    std::process::exit(2);
}

#[cfg(target_arch = "x86_64")]
fn main() {
    use murmur_core::prelude::*;
    use plain::Floor;
    use std::time::Instant;
    let size = std::env::args().nth(1).unwrap_or_else(|| "small".into());
    let runs: usize = std::env::args()
        .nth(2)
        .map_or(100, |a| a.parse().expect("a run count"))
        .max(1);
    let (boids, side, vision) = match size.as_str() {
        "small" => (200, 100.0, 5.0),
        "large" => (400, 150.0, 15.0),
        other => panic!("size is small or large, not {other}"),
    };
    let avx512 = std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("popcnt");
    if !avx512 {
        eprintln!("abmfloor needs an x86-64 CPU with AVX-512 (F, VL), BMI2 and POPCNT");
        std::process::exit(2);
    }
    let mut preset = Preset::load("abm").expect("built in");
    preset.set("vision", &vision.to_string()).expect("a vision");
    preset.world.width = side;
    preset.world.height = side;
    let params = preset.flock_params();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let (mut fast, mut floor) = (Vec::new(), Vec::new());
    let (mut fast_neighbours, mut floor_neighbours) = (0.0, 0.0);
    pool.install(|| {
        for seed in 1..=runs as u64 {
            // In turns, so that both see the machine as it is at the time.
            let started = Instant::now();
            let mut flock = FastFlock::new(params.clone(), boids, seed);
            for _ in 0..100 {
                flock.step();
            }
            std::hint::black_box(flock.state_hash());
            fast.push(started.elapsed().as_secs_f64() * 1e3);
            fast_neighbours += flock.metrics().mean_neighbours;

            let started = Instant::now();
            let mut plain = Floor::new(&params, boids, seed);
            for _ in 0..100 {
                // SAFETY: the CPU's features were checked above.
                unsafe { plain.step() };
            }
            std::hint::black_box(plain.x[0]);
            floor.push(started.elapsed().as_secs_f64() * 1e3);
            floor_neighbours += plain.mean_neighbours();
        }
    });
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (fast_ms, floor_ms) = (median(&mut fast), median(&mut floor));
    println!(
        "{size}: FastFlock median {fast_ms:.3} ms a run, the plain form {floor_ms:.3} ms \
         ({:.2}x FastFlock's time); mean neighbours after 100 steps {:.2} and {:.2}",
        floor_ms / fast_ms,
        fast_neighbours / runs as f64,
        floor_neighbours / runs as f64,
    );
}

/// The plain form (x86-64 only: it is written in AVX-512).
#[cfg(target_arch = "x86_64")]
mod plain {
    use murmur_core::prelude::*;
    use murmur_core::sim::initial_boids;

    /// Eight lanes.
    const LANES: usize = 8;

    /// The flock in the plainest fast form: columns in cell order, re-sorted every step.
    pub(super) struct Floor {
        n: usize,
        /// World side (a square torus) and cells across it.
        side: f32,
        nx: usize,
        inv_cell: f32,
        vision2: f32,
        separation2: f32,
        speed: f32,
        factors: [f32; 3],
        /// Positions and velocities in cell order, each padded by a chunk of zeros so that every
        /// chunk's load stays inside.
        pub(super) x: Vec<f32>,
        y: Vec<f32>,
        u: Vec<f32>,
        v: Vec<f32>,
        /// The same for the sort to scatter into.
        spare: [Vec<f32>; 4],
        /// Each bird's cell (by its place before the sort; after it, by its place).
        cell: Vec<u32>,
        sorted_cell: Vec<u32>,
        /// First bird of each cell, and one past the last cell.
        start: Vec<u32>,
        cursor: Vec<u32>,
        /// Each cell's block: three rows, each up to two runs of cells (first, end, shift x, shift y).
        block: Vec<[(u32, u32, f32, f32); 6]>,
        /// Neighbours seen, summed offsets, velocities and near offsets, by bird.
        sums: Vec<[f32; 8]>,
    }

    impl Floor {
        pub(super) fn new(params: &FlockParams, n: usize, seed: u64) -> Self {
            let Model::Abm(m) = &params.model else {
                panic!("the abm preset");
            };
            let side = params.world_size.x;
            let nx = ((side / (m.vision * 1.001)).floor() as usize).max(3);
            let (pos, vel) = initial_boids::<Vec2>(params, n, seed);
            let min = params.bounds().min;
            let column = |f: &dyn Fn(usize) -> f32| {
                let mut c: Vec<f32> = (0..n).map(f).collect();
                c.resize(n + LANES, 0.0);
                c
            };
            let mut flock = Self {
                n,
                side,
                nx,
                inv_cell: nx as f32 / side,
                vision2: m.vision * m.vision,
                separation2: m.separation * m.separation,
                speed: m.speed,
                factors: [m.cohere_factor, m.separate_factor, m.match_factor],
                // Positions from the world's corner, so that cells start at 0.
                x: column(&|i| pos[i].x - min.x),
                y: column(&|i| pos[i].y - min.y),
                u: column(&|i| vel[i].x),
                v: column(&|i| vel[i].y),
                spare: std::array::from_fn(|_| vec![0.0; n + LANES]),
                cell: vec![0; n],
                sorted_cell: vec![0; n],
                start: vec![0; nx * nx + 1],
                cursor: vec![0; nx * nx],
                block: Vec::with_capacity(nx * nx),
                sums: vec![[0.0; 8]; n],
            };
            for i in 0..n {
                flock.cell[i] = flock.cell_of(flock.x[i], flock.y[i]);
            }
            for c in 0..nx * nx {
                flock.block.push(flock.block_of(c % nx, c / nx));
            }
            flock
        }

        fn cell_of(&self, x: f32, y: f32) -> u32 {
            let last = self.nx as u32 - 1;
            let cx = ((x * self.inv_cell) as u32).min(last);
            let cy = ((y * self.inv_cell) as u32).min(last);
            cy * self.nx as u32 + cx
        }

        /// The runs of cells around cell (cx, cy), across the seams of the torus.
        fn block_of(&self, cx: usize, cy: usize) -> [(u32, u32, f32, f32); 6] {
            let (nx, w) = (self.nx, self.side);
            let mut block = [(0, 0, 0.0, 0.0); 6];
            for r in 0..3 {
                let (row, dy) = match cy + r {
                    0 => (nx - 1, -w),
                    k if k == nx + 1 => (0, w),
                    k => (k - 1, 0.0),
                };
                let base = (row * nx) as u32;
                let runs = match cx {
                    0 => [(nx - 1, nx, -w), (0, 2, 0.0)],
                    c if c == nx - 1 => [(nx - 2, nx, 0.0), (0, 1, w)],
                    c => [(c - 1, c + 2, 0.0), (0, 0, 0.0)],
                };
                for (part, (first, end, dx)) in runs.into_iter().enumerate() {
                    block[2 * r + part] = (base + first as u32, base + end as u32, dx, dy);
                }
            }
            block
        }

        /// One step: sort, sums, steering and move.
        ///
        /// # Safety
        /// The CPU must have AVX-512 F and VL, BMI2 and POPCNT.
        #[target_feature(enable = "avx512f,avx512vl,bmi2,popcnt,avx2,fma")]
        pub(super) unsafe fn step(&mut self) {
            self.sort();
            // SAFETY: passed on.
            unsafe { self.sum() };
            self.steer_and_move();
        }

        /// The counting sort by cell (stable).
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,bmi2,popcnt,avx2,fma")]
        fn sort(&mut self) {
            self.start.fill(0);
            for &c in &self.cell {
                self.start[c as usize + 1] += 1;
            }
            for c in 0..self.nx * self.nx {
                self.start[c + 1] += self.start[c];
            }
            let cells = self.cursor.len();
            self.cursor.copy_from_slice(&self.start[..cells]);
            let [sx, sy, su, sv] = &mut self.spare;
            for i in 0..self.n {
                let c = self.cell[i] as usize;
                let k = self.cursor[c] as usize;
                self.cursor[c] += 1;
                self.sorted_cell[k] = c as u32;
                (sx[k], sy[k], su[k], sv[k]) = (self.x[i], self.y[i], self.u[i], self.v[i]);
            }
            std::mem::swap(&mut self.x, sx);
            std::mem::swap(&mut self.y, sy);
            std::mem::swap(&mut self.u, su);
            std::mem::swap(&mut self.v, sv);
        }

        /// Every bird's sums over its block, eight candidates at a time.
        ///
        /// # Safety
        /// As for [`Floor::step`].
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,bmi2,popcnt,avx2,fma")]
        unsafe fn sum(&mut self) {
            use std::arch::x86_64::*;
            let vision2 = _mm256_set1_ps(self.vision2);
            let separation2 = _mm256_set1_ps(self.separation2);
            let columns = [
                self.x.as_ptr(),
                self.y.as_ptr(),
                self.u.as_ptr(),
                self.v.as_ptr(),
            ];
            let nx = self.nx;
            for b in 0..self.n {
                let c = self.sorted_cell[b] as usize;
                let cx = c % nx;
                // Away from the seam across the columns each row is one run of three cells.
                let parts = if (1..nx - 1).contains(&cx) { 1 } else { 2 };
                let z = _mm256_setzero_ps();
                let mut acc = [z; 6];
                let mut seen = 0;
                for i in (0..3).flat_map(|r| (0..parts).map(move |part| 2 * r + part)) {
                    let (first, end, dx, dy) = self.block[c][i];
                    let (s, e) = (self.start[first as usize], self.start[end as usize]);
                    let ox = _mm256_set1_ps(dx - self.x[b]);
                    let oy = _mm256_set1_ps(dy - self.y[b]);
                    let mut at = s as usize;
                    let mut left = e - s;
                    loop {
                        let m = _bzhi_u32(0xff, left.min(8)) as u8;
                        // SAFETY: the columns are padded by a chunk.
                        let [px, py, pu, pv] =
                            columns.map(|col| unsafe { _mm256_loadu_ps(col.add(at)) });
                        let ddx = _mm256_add_ps(px, ox);
                        let ddy = _mm256_add_ps(py, oy);
                        let d2 = _mm256_add_ps(_mm256_mul_ps(ddx, ddx), _mm256_mul_ps(ddy, ddy));
                        let near = _mm256_mask_cmp_ps_mask::<_CMP_LT_OQ>(m, d2, separation2);
                        let sight = _mm256_mask_cmp_ps_mask::<_CMP_LT_OQ>(m, d2, vision2);
                        seen += sight.count_ones();
                        for (a, (mask, value)) in acc.iter_mut().zip([
                            (sight, ddx),
                            (sight, ddy),
                            (sight, pu),
                            (sight, pv),
                            (near, ddx),
                            (near, ddy),
                        ]) {
                            *a = _mm256_mask_add_ps(*a, mask, *a, value);
                        }
                        if left <= 8 {
                            break;
                        }
                        left -= 8;
                        at += 8;
                    }
                }
                let total = |a: __m256, b: __m256, c: __m256, d: __m256| {
                    let h = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
                    let mut out = [0.0f32; 4];
                    // SAFETY: four floats.
                    unsafe {
                        _mm_storeu_ps(
                            out.as_mut_ptr(),
                            _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps::<1>(h)),
                        )
                    };
                    out
                };
                let [ox, oy, vx, vy] = total(acc[0], acc[1], acc[2], acc[3]);
                let [nx_, ny_, _, _] = total(acc[4], acc[5], z, z);
                // The bird itself is among the candidates, at distance 0.
                self.sums[b] = [
                    (seen - 1) as f32,
                    ox,
                    oy,
                    vx - self.u[b],
                    vy - self.v[b],
                    nx_,
                    ny_,
                    0.0,
                ];
            }
        }

        /// The model's steering and the move, eight birds at a time, and each bird's next cell.
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl,bmi2,popcnt,avx2,fma")]
        fn steer_and_move(&mut self) {
            let [cohere, separate, align] = self.factors;
            for first in (0..self.n).step_by(LANES) {
                let m = (self.n - first).min(LANES);
                let mut lane = [[0.0f32; LANES]; 11];
                for (l, k) in (first..first + m).enumerate() {
                    let s = &self.sums[k];
                    for (q, value) in [
                        s[0], s[1], s[2], s[3], s[4], s[5], s[6], self.x[k], self.y[k], self.u[k],
                        self.v[k],
                    ]
                    .into_iter()
                    .enumerate()
                    {
                        lane[q][l] = value;
                    }
                }
                let [n, ox, oy, vx, vy, nx, ny, x, y, u, v] = &mut lane;
                let mut cells = [0u32; LANES];
                for l in 0..LANES {
                    let count = n[l].max(1.0);
                    let cx = (ox[l] * cohere - nx[l] * separate + vx[l] * align) / count;
                    let cy = (oy[l] * cohere - ny[l] * separate + vy[l] * align) / count;
                    let (wx, wy) = (u[l] + cx, v[l] + cy);
                    let rcp = 1.0 / (wx * wx + wy * wy).sqrt();
                    let ok = rcp.is_finite() & (rcp > 0.0);
                    let (hx, hy) = if ok { (wx * rcp, wy * rcp) } else { (1.0, 0.0) };
                    (u[l], v[l]) = (hx * self.speed, hy * self.speed);
                    let wrap = |p: f32| {
                        if p < 0.0 {
                            p + self.side
                        } else if p >= self.side {
                            p - self.side
                        } else {
                            p
                        }
                    };
                    (x[l], y[l]) = (wrap(x[l] + u[l]), wrap(y[l] + v[l]));
                    cells[l] = self.cell_of(x[l], y[l]);
                }
                for l in 0..m {
                    let k = first + l;
                    (self.x[k], self.y[k], self.u[k], self.v[k]) = (x[l], y[l], u[l], v[l]);
                    self.cell[k] = cells[l];
                }
            }
        }

        /// Mean neighbours seen in the last step.
        pub(super) fn mean_neighbours(&self) -> f64 {
            self.sums.iter().map(|s| s[0] as f64).sum::<f64>() / self.n as f64
        }
    }
}
