// murmur's web page in a real browser: serves web/dist on localhost, opens it in headless
// Chromium (Debian's, driven by playwright-core), waits for frames, clicks to place the
// leader, and checks what a person would see: birds on the sky, a picture that changes over
// time, the crimson leader where the click was with birds gathering, and a console without
// errors. It reloads the page and checks the panel stayed hidden (settings kept in the
// browser's storage). Then it opens the page with a scene in its address and checks the app
// took it, and warned (not failed) about the part it could not use. Screenshots go to web/test/shots/ (or
// the folder given).
//
//   node web/test/browser.mjs [dist] [shots]

import { chromium } from "playwright-core";
import { PNG } from "pngjs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../serve.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = process.argv[2] ?? join(here, "..", "dist");
const shots = process.argv[3] ?? join(here, "shots");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const SIZE = { width: 1280, height: 720 };

const failures = [];
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
}

/** Pixels of a screenshot as [r, g, b] per pixel, row by row. */
function pixels(png) {
  const img = PNG.sync.read(png);
  return { width: img.width, height: img.height, at: (x, y) => {
    const i = (y * img.width + x) * 4;
    return [img.data[i], img.data[i + 1], img.data[i + 2]];
  } };
}

// The same colour tests as the native screenshot test (tests/screenshot.rs).
const isBird = ([r, g, b]) => g < 120 && b > 60 && r < 150;
const isCrimson = ([r, g, b]) => r > 170 && g < 80 && b >= 20 && b < 120;
const isSky = ([r, g, b]) => Math.abs(r - 112) < 30 && Math.abs(g - 231) < 30 && b > 220;

/** Points matching `test`, away from the text boxes along the top and bottom. */
function matching(pic, test) {
  const out = [];
  for (let y = 60; y < pic.height - 60; y++) {
    for (let x = 0; x < pic.width; x++) {
      if (test(pic.at(x, y))) out.push([x, y]);
    }
  }
  return out;
}

function differing(a, b) {
  let n = 0;
  for (let y = 60; y < a.height - 60; y += 2) {
    for (let x = 0; x < a.width; x += 2) {
      const p = a.at(x, y), q = b.at(x, y);
      if (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) > 30) n++;
    }
  }
  return n;
}

await mkdir(shots, { recursive: true });
const server = await serve(dist);
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    "--no-sandbox",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    // WebGL2 on the CPU: no GPU here.
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
  ],
});
const errors = [];
const logs = [];

/** Opens the page at `address` and waits for its first frames. */
async function open(address) {
  const page = await browser.newPage({ viewport: SIZE });
  page.on("console", (msg) => {
    logs.push(`${msg.type()}: ${msg.text()}`);
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(address);
  await page.locator("#murmur").waitFor();
  // The first frames come after the wasm module is compiled and the pipelines are built.
  await page.waitForFunction(() => document.getElementById("loading") === null, null, {
    timeout: 120_000,
  });
  await page.waitForTimeout(6_000);
  return page;
}

// Bevy's log lines reach the console with their level in the text (styled with %c).
const logged = (level, text) => logs.some((l) => l.includes(level) && l.includes(text));

try {
  const page = await open(url);
  const canvas = page.locator("#murmur");
  check(logged("INFO", "murmur: 2000 birds, reynolds model, seed 1"), "the default scene starts");

  const first = await page.screenshot();
  await writeFile(join(shots, "1-started.png"), first);
  await page.waitForTimeout(2_000);
  const later = await page.screenshot();
  await writeFile(join(shots, "2-two-seconds-later.png"), later);

  const a = pixels(first), b = pixels(later);
  const birds = matching(a, isBird).length;
  const sky = matching(a, isSky).length;
  check(sky > 0.3 * a.width * a.height, `the canvas shows the sky (${sky} sky pixels)`);
  check(birds > 2000, `birds are drawn (${birds} bird pixels)`);
  const moved = differing(a, b);
  check(moved > 500, `the picture changes over time (${moved} sampled pixels differ)`);

  // The panel (open at start) goes with the P key, as in the window.
  const isPanel = ([r, g, b]) => r < 60 && g < 60 && b < 60 && Math.abs(r - b) < 12;
  const panelStrip = (pic) => {
    let n = 0;
    for (let y = 60; y < pic.height - 60; y += 2) {
      for (let x = pic.width - 300; x < pic.width; x += 2) n += isPanel(pic.at(x, y)) ? 1 : 0;
    }
    return n;
  };
  const panelBefore = panelStrip(b);
  check(panelBefore > 5000, `the panel is open at start (${panelBefore} sampled panel pixels)`);
  await canvas.focus();
  await page.keyboard.press("p");
  await page.waitForTimeout(1_500);
  const panelAfter = panelStrip(pixels(await page.screenshot()));
  check(panelAfter < panelBefore / 10, `P hides the panel (${panelAfter} panel pixels left)`);

  // Place the leader with a click, as a user would.
  const click = { x: 900, y: 300 };
  await page.mouse.click(click.x, click.y);
  await page.waitForTimeout(8_000);
  const led = await page.screenshot();
  await writeFile(join(shots, "3-after-click.png"), led);
  const c = pixels(led);
  const crimson = matching(c, isCrimson);
  check(crimson.length >= 20, `the leader is drawn (${crimson.length} crimson pixels)`);
  if (crimson.length > 0) {
    const cx = crimson.reduce((s, p) => s + p[0], 0) / crimson.length;
    const cy = crimson.reduce((s, p) => s + p[1], 0) / crimson.length;
    const off = Math.hypot(cx - click.x, cy - click.y);
    check(off < 25, `the leader is where the click was (${off.toFixed(1)} px away)`);
    const all = matching(c, isBird);
    const near = all.filter(([x, y]) => Math.hypot(x - cx, y - cy) < 150).length;
    const share = (Math.PI * 150 * 150) / (c.width * (c.height - 120));
    check(near > 2 * share * all.length, `birds gather round it (${near} of ${all.length} bird pixels within 150 px)`);
  }

  // Settings are kept in the browser's storage (a couple of seconds after a change): the panel
  // hidden with P stays hidden after a reload, and the same flock comes back.
  const started = logs.length;
  await page.reload();
  await page.waitForFunction(() => document.getElementById("loading") === null, null, {
    timeout: 120_000,
  });
  await page.waitForTimeout(6_000);
  const reloaded = await page.screenshot();
  await writeFile(join(shots, "4-reloaded.png"), reloaded);
  const panelReloaded = panelStrip(pixels(reloaded));
  check(panelReloaded < panelBefore / 10, `the panel stays hidden after a reload (${panelReloaded} panel pixels)`);
  check(
    logs.slice(started).some((l) => l.includes("INFO") && l.includes("murmur: 2000 birds, reynolds model, seed 1")),
    "the reload resumes the same flock",
  );

  // F12 saves the picture and F9 records the canvas, both as downloads, as in the window.
  await canvas.focus();
  const [still] = await Promise.all([
    page.waitForEvent("download", { timeout: 60_000 }),
    page.keyboard.press("F12"),
  ]);
  const stillPng = PNG.sync.read(await readFile(await still.path()));
  check(
    still.suggestedFilename().endsWith(".png") && stillPng.width === SIZE.width,
    `F12 downloads a PNG of the canvas (${still.suggestedFilename()}, ${stillPng.width}x${stillPng.height})`,
  );
  await page.keyboard.press("F9");
  await page.waitForTimeout(2_500);
  const [recording] = await Promise.all([
    page.waitForEvent("download", { timeout: 60_000 }),
    page.keyboard.press("F9"),
  ]);
  const gif = await readFile(await recording.path());
  // Decoded by the browser's own GIF decoder (WebCodecs).
  const frames = await page.evaluate(async (b64) => {
    if (typeof ImageDecoder === "undefined") return -1;
    const data = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const decoder = new ImageDecoder({ data, type: "image/gif" });
    await decoder.tracks.ready;
    await decoder.completed;
    return decoder.tracks.selectedTrack.frameCount;
  }, gif.toString("base64"));
  check(
    recording.suggestedFilename().endsWith(".gif") && frames > 1,
    `F9 twice downloads a GIF of more than one frame (${recording.suggestedFilename()}: ${frames} frames, ${gif.length} bytes)`,
  );
  await page.close();

  // The address is the page's command line; a part it cannot use is a warning, not a failure.
  const cornell = await open(`${url}?preset=cornell&boids=500&seed=7&set=max_speed%3D4&hunter=-200,0&colour=red`);
  await writeFile(join(shots, "5-address-cornell.png"), await cornell.screenshot());
  check(
    logged("INFO", "murmur: 500 birds, cornell model, seed 7, hunter at -200,0"),
    "the address chose preset, birds, seed and a hunter",
  );
  check(logged("WARN", "colour=red: not something the page understands"), "an unknown part of the address is warned about");
  await cornell.close();
  check(errors.length === 0, `no errors in the console${errors.length ? ": " + errors.join(" | ") : ""}`);
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.error(`console:\n  ${logs.join("\n  ")}`);
  console.error(`${failures.length} check(s) failed; screenshots in ${shots}`);
  process.exit(1);
}
console.log(`all checks passed; screenshots in ${shots}`);
