// How fast the page flies the flock beside the native app on one thread. Each scene runs on the
// page with `?ticks=N` (`murmur headless`'s app in headless Chromium, without drawing, so the
// software renderer takes no share of the cores) and natively with `murmur headless --threads 1
// --every N/2`, alternately, several rounds; the figure on each side is the mean tick time over
// the run's second half (the page's first ticks run V8's quick baseline code until the hot
// functions are compiled at the top tier), and the median over the rounds. Each page run's
// state hash is also held to the native one. Prints one JSON line per scene and a table.
//
//   node web/test/speed.mjs [dist] [murmur binary] [ticks] [rounds]
//
// Scenes: the page's default (2,000 birds, Reynolds, seed 1) and a dense ring round a leader
// (1,500 Cornell birds gathered at a leader at the world's centre). A benchmark, not a test: it
// fails only when a side measured nothing or the two sides ended in different states.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../serve.mjs";
import { launch } from "./lib.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = process.argv[2] ?? join(here, "..", "dist");
const murmur = process.argv[3] ?? join(here, "..", "..", "target", "debug", "murmur");
const ticks = Number(process.argv[4] ?? 2400);
const rounds = Number(process.argv[5] ?? 3);
if (!(ticks >= 60 && ticks % 60 === 0) || !(rounds >= 1)) {
  console.error("usage: node web/test/speed.mjs [dist] [murmur binary] [ticks: a multiple of 60] [rounds]");
  process.exit(2);
}

const scenes = [
  { name: "default", address: "preset=reynolds&boids=2000&seed=1", flags: ["--preset", "reynolds", "--boids", "2000", "--seed", "1"] },
  { name: "ring", address: "preset=cornell&boids=1500&seed=1&leader=0,0", flags: ["--preset", "cornell", "--boids", "1500", "--seed", "1", "--leader", "0,0"] },
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

const server = await serve(dist);
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const browserVersion = browser.version();
const rows = [];
let failed = false;
try {
  for (const scene of scenes) {
    const page = [];
    const native = [];
    let same = true;
    let neighbours;
    for (let round = 0; round < rounds; round++) {
      const tab = await browser.newPage();
      await tab.goto(`${url}?${scene.address}&ticks=${ticks}`);
      await tab.waitForFunction(() => document.documentElement.dataset.ticksResult, null, { timeout: 600_000 });
      const result = JSON.parse(await tab.evaluate(() => document.documentElement.dataset.ticksResult));
      await tab.close();
      const out = execFileSync(murmur, ["headless", ...scene.flags, "--threads", "1", "--steps", String(ticks), "--every", String(ticks / 2)], { encoding: "utf8" });
      const lines = out.trim().split("\n").map((l) => JSON.parse(l));
      const second = lines.filter((l) => !l.final).at(-1);
      const closing = lines.at(-1);
      page.push(result.late_step_ms);
      native.push(second.step_ms);
      same &&= result.state_hash === closing.state_hash;
      neighbours = closing.mean_neighbours;
    }
    const row = {
      scene: scene.name,
      ticks,
      rounds,
      page_step_ms: median(page),
      native_step_ms: median(native),
      page_over_native: median(page) / median(native),
      page_runs_ms: page,
      native_runs_ms: native,
      mean_neighbours: neighbours,
      same_state_hash: same,
    };
    if (!(row.page_step_ms > 0 && row.native_step_ms > 0 && same)) failed = true;
    console.log(JSON.stringify(row));
    rows.push(row);
  }
} finally {
  await browser.close();
  server.close();
}
const cpu = execFileSync("sh", ["-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], { encoding: "utf8" }).trim();
const avx512 = execFileSync("sh", ["-c", "grep -c avx512f /proc/cpuinfo || true"], { encoding: "utf8" }).trim() !== "0";
console.log(`\nbrowser: Chromium ${browserVersion}; CPU: ${cpu}; native lanes: ${avx512 ? "AVX-512" : "AVX or SSE (the widest the CPU has)"}; page: wasm simd128`);
console.log(`\n| scene | page, ms a tick | native (1 thread), ms a tick | page / native |`);
console.log("|---|---|---|---|");
for (const r of rows) {
  console.log(`| ${r.scene} | ${r.page_step_ms.toFixed(3)} | ${r.native_step_ms.toFixed(3)} | ${r.page_over_native.toFixed(2)}x |`);
}
process.exit(failed ? 1 : 0);
