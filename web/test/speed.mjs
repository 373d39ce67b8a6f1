// How fast the page flies the flock beside the native app on one thread: the page's tick time
// (the panel's smoothed step time, which the app publishes as `data-step-ms` on the page's root
// element) read in headless Chromium once a second after a warm-up, against `murmur headless
// --threads 1` on the same scene (its mean `step_ms`, the same phases of the same plugins), run
// in this script right after, on the same machine. Prints one JSON line per scene and a table.
//
//   node web/test/speed.mjs [dist] [murmur binary] [seconds]
//
// Scenes: the page's default (2,000 birds, Reynolds, seed 1) and a dense ring round a leader
// (1,500 Cornell birds gathered at a leader at the world's centre). A benchmark, not a test: it checks
// only that both sides measured something.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../serve.mjs";
import { launch, open } from "./lib.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = process.argv[2] ?? join(here, "..", "dist");
const murmur = process.argv[3] ?? join(here, "..", "..", "target", "debug", "murmur");
const seconds = Number(process.argv[4] ?? 20);

const scenes = [
  { name: "default", address: "?preset=reynolds&boids=2000&seed=1", flags: ["--preset", "reynolds", "--boids", "2000", "--seed", "1"] },
  { name: "ring", address: "?preset=cornell&boids=1500&seed=1&leader=0,0", flags: ["--preset", "cornell", "--boids", "1500", "--seed", "1", "--leader", "0,0"] },
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
    const logs = [];
    const errors = [];
    const context = await browser.newContext();
    const page = await open(context, url + scene.address, { logs, errors, settle: 3_000 });
    // Warm-up: half the time (the ring gathers), then a reading a second.
    await page.waitForTimeout((seconds / 2) * 1000);
    const readings = [];
    for (let i = 0; i < seconds / 2; i++) {
      await page.waitForTimeout(1000);
      const ms = await page.evaluate(() => Number(document.documentElement.dataset.stepMs));
      if (Number.isFinite(ms) && ms > 0) readings.push(ms);
    }
    await context.close();
    // The same scene natively, one thread, as many ticks as the page ran at 60 Hz.
    const ticks = Math.round(seconds * 60);
    const out = execFileSync(murmur, ["headless", ...scene.flags, "--threads", "1", "--steps", String(ticks), "--every", String(ticks / 2)], { encoding: "utf8" });
    const lines = out.trim().split("\n").map((l) => JSON.parse(l));
    // The second half's line: after the same warm-up as the page's readings.
    const native = lines.filter((l) => !l.final).at(-1);
    const row = {
      scene: scene.name,
      page_step_ms: median(readings),
      page_readings: readings.length,
      native_step_ms: native?.step_ms,
      native_mean_neighbours: native?.mean_neighbours,
      page_over_native: median(readings) / native?.step_ms,
      console_errors: errors.length,
    };
    if (!(readings.length > 0 && native?.step_ms > 0)) failed = true;
    console.log(JSON.stringify(row));
    rows.push(row);
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`\nbrowser: ${browserVersion}; native CPU features used: the widest lane form the CPU has (AVX-512 or AVX, else SSE)`);
console.log("\n| scene | page, ms a tick | native (1 thread), ms a tick | page / native |");
console.log("|---|---|---|---|");
for (const r of rows) {
  console.log(`| ${r.scene} | ${r.page_step_ms?.toFixed(3)} | ${r.native_step_ms?.toFixed(3)} | ${r.page_over_native?.toFixed(2)}x |`);
}
process.exit(failed ? 1 : 0);
