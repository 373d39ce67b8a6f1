// The page's results equal the native app's: each scene run on the page with `?ticks=N`
// (`murmur headless`'s app in the browser: the flock plugins, no drawing, no player bird) ends
// with the state hash `murmur headless` prints for the same scene, seed and ticks, run here on
// the same machine. Negative control: a run one tick shorter on the page ends elsewhere, so the
// comparison does see a difference. A bad `ticks` value is warned about and the page flies as
// usual.
//
//   node web/test/ticks.mjs [dist] [murmur binary]

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../serve.mjs";
import { checks, launch, started } from "./lib.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = process.argv[2] ?? join(here, "..", "dist");
const murmur = process.argv[3] ?? join(here, "..", "..", "target", "debug", "murmur");

const scenes = [
  { name: "the default scene (reynolds, 2,000 birds)", address: "preset=reynolds&boids=2000&seed=1", flags: ["--preset", "reynolds", "--boids", "2000", "--seed", "1"], ticks: 600 },
  { name: "a ring round a leader (cornell, 1,500 birds)", address: "preset=cornell&boids=1500&seed=1&leader=0,0", flags: ["--preset", "cornell", "--boids", "1500", "--seed", "1", "--leader", "0,0"], ticks: 600 },
  { name: "a 3D flock with its solids (reynolds3d, 1,000 birds)", address: "preset=reynolds3d&boids=1000&seed=4", flags: ["--preset", "reynolds3d", "--boids", "1000", "--seed", "4"], ticks: 300 },
];

/** The page's closing line for `address` with `ticks` ticks, and what its console said. */
async function onPage(browser, url, address, ticks) {
  const page = await browser.newPage();
  const errors = [];
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${url}?${address}&ticks=${ticks}`);
  await page.waitForFunction(() => document.documentElement.dataset.ticksResult, null, { timeout: 180_000 });
  const result = JSON.parse(await page.evaluate(() => document.documentElement.dataset.ticksResult));
  const shown = await page.locator("#loading-text").textContent();
  await page.close();
  return { result, errors, shown };
}

/** `murmur headless`'s closing line for the same scene. */
function native(flags, ticks) {
  const out = execFileSync(murmur, ["headless", ...flags, "--threads", "1", "--steps", String(ticks), "--every", String(ticks)], { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").at(-1));
}

const { check, failures } = checks();
const server = await serve(dist);
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
try {
  for (const scene of scenes) {
    const { result, errors, shown } = await onPage(browser, url, scene.address, scene.ticks);
    const there = native(scene.flags, scene.ticks);
    console.log(`     page:   ${result.state_hash} after ${result.steps} ticks, ${result.mean_neighbours} mean neighbours, ${result.step_ms.toFixed(3)} ms a tick`);
    console.log(`     native: ${there.state_hash} after ${there.steps} ticks, ${there.mean_neighbours} mean neighbours, ${there.step_ms.toFixed(3)} ms a tick`);
    check(result.steps === scene.ticks && !result.error, `${scene.name}: the page ran all ${scene.ticks} ticks`);
    check(result.state_hash === there.state_hash, `${scene.name}: the page's state hash is murmur headless's`);
    check(result.mean_neighbours === there.mean_neighbours && result.polarization === there.polarization, `${scene.name}: its figures are murmur headless's`);
    check(errors.length === 0 && result.warnings.length === 0, `${scene.name}: no errors or warnings (${[...errors, ...result.warnings].join("; ")})`);
    check(shown.includes(result.state_hash), `${scene.name}: the page shows its result`);
  }

  // Negative control: one tick fewer on the page is another state.
  const [first] = scenes;
  const short = await onPage(browser, url, first.address, first.ticks - 1);
  const there = native(first.flags, first.ticks);
  check(short.result.steps === first.ticks - 1 && short.result.state_hash !== there.state_hash, `negative control: ${first.ticks - 1} ticks on the page do not give the hash of ${first.ticks} (${short.result.state_hash})`);

  // A bad value: warned about, and the page flies the flock as usual.
  const page = await browser.newPage();
  const logs = [];
  page.on("console", (msg) => logs.push(msg.text()));
  await page.goto(`${url}?preset=reynolds&boids=300&ticks=lots`);
  await started(page);
  check(logs.some((l) => l.includes("ticks=lots: expected a whole number of ticks")), "ticks=lots is warned about and the page flies as usual");
  await page.close();
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.log(`\n${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("\nall checks passed");
