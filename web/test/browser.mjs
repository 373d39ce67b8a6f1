// murmur's web page in a real browser: serves web/dist on localhost, opens it in headless
// Chromium (Debian's, driven by playwright-core), measures what the wasm costs over the wire
// and how soon the flock is drawn, watches the loading bar fill on a slowed line, waits for
// frames, clicks to place the
// leader, and checks what a person would see: birds on the sky, a picture that changes over
// time, the crimson leader where the click was with birds gathering, and a console without
// errors. It reloads the page and checks the panel stayed hidden (settings kept in the
// browser's storage). Then it opens the page with a scene in its address and checks the app
// took it, and warned (not failed) about the part it could not use. Screenshots go to web/test/shots/ (or
// the folder given).
//
//   node web/test/browser.mjs [dist] [shots]

import { PNG } from "pngjs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../serve.mjs";
import { SIZE, checks, isBird, isCrimson, isSky, launch, matching, open as openPage, pixels, started } from "./lib.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = process.argv[2] ?? join(here, "..", "dist");
const shots = process.argv[3] ?? join(here, "shots");
const { check, failures } = checks();

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
const browser = await launch();
const errors = [];
const logs = [];
const open = (address) => openPage(browser, address, { logs, errors });

// Bevy's log lines reach the console with their level in the text (styled with %c).
const logged = (level, text) => logs.some((l) => l.includes(level) && l.includes(text));

try {
  // Loading: what comes over the wire, and how soon after navigation the flock is on screen.
  {
    const page = await browser.newPage({ viewport: SIZE });
    let encoding = null;
    page.on("response", (r) => {
      if (r.url().endsWith("/murmur_bg.wasm")) encoding = r.headers()["content-encoding"] ?? "identity";
    });
    const t0 = Date.now();
    await page.goto(url);
    // The app's own word (performance.now() at its first drawn frame, from navigation), and a
    // person's: the first screenshot with the flock on the sky.
    let seen = null;
    while (seen === null && Date.now() - t0 < 120_000) {
      const pic = pixels(await page.screenshot());
      if (matching(pic, isBird).length > 2000 && matching(pic, isSky).length > 0.3 * pic.width * pic.height) {
        seen = (Date.now() - t0) / 1000;
      }
    }
    const firstFrame = await page.evaluate(() => (window.murmurFirstFrame ?? NaN) / 1000);
    const wasm = await page.evaluate(() => {
      const e = performance.getEntriesByType("resource").find((r) => r.name.endsWith("/murmur_bg.wasm"));
      return e ? { wire: e.encodedBodySize, size: e.decodedBodySize } : null;
    });
    const mb = (n) => (n / 1e6).toFixed(2);
    check(
      encoding === "br" && wasm && wasm.wire <= 6e6,
      `the wasm comes brotli-compressed, at most 6 MB over the wire (${encoding}: ${wasm ? `${mb(wasm.wire)} MB for ${mb(wasm.size)} MB` : "not loaded"})`,
    );
    check(
      firstFrame <= 10 && seen !== null,
      `the first frame is drawn within 10 s of navigation (${firstFrame.toFixed(1)} s; the flock seen in a screenshot after ${seen === null ? "never" : seen.toFixed(1) + " s"})`,
    );
    await page.close();
  }

  // The loading bar, on a line slow enough to watch it fill (16 Mbit/s).
  {
    const page = await browser.newPage({ viewport: SIZE });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false, latency: 20, downloadThroughput: 2_000_000, uploadThroughput: 1_000_000,
    });
    await page.goto(url);
    const seen = [];
    for (let i = 0; i < 100; i++) {
      const state = await page.evaluate(() => {
        const text = document.getElementById("loading-text");
        const bar = document.getElementById("loading-bar");
        return text ? { text: text.textContent, value: bar && bar.hasAttribute("value") ? bar.value : null } : null;
      });
      if (state === null) break;
      seen.push(state);
      if (state.text.startsWith("compiling")) break;
      await page.waitForTimeout(100);
    }
    const partial = seen.filter((s) => s.value > 0 && s.value < 1 && / of [\d.]+ MB$/.test(s.text));
    const values = partial.map((s) => s.value);
    check(
      partial.length >= 3 && values.every((v, i) => i === 0 || v >= values[i - 1]),
      `a loading bar fills as the wasm downloads (${partial.length} readings, e.g. "${partial[Math.floor(partial.length / 2)]?.text}")`,
    );
    check(seen.some((s) => s.text.startsWith("compiling")), "then says it is compiling");
    await page.close();
  }

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
  const logsBefore = logs.length;
  await page.reload();
  await started(page);
  await page.waitForTimeout(6_000);
  const reloaded = await page.screenshot();
  await writeFile(join(shots, "4-reloaded.png"), reloaded);
  const panelReloaded = panelStrip(pixels(reloaded));
  check(panelReloaded < panelBefore / 10, `the panel stays hidden after a reload (${panelReloaded} panel pixels)`);
  check(
    logs.slice(logsBefore).some((l) => l.includes("INFO") && l.includes("murmur: 2000 birds, reynolds model, seed 1")),
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
  // Frames come as fast as the canvas can be read back: slowly under a software renderer on a
  // busy machine. The page counts them (data-recorded-frames); stop once there are three.
  await page.waitForTimeout(1_000);
  await page.waitForFunction(() => Number(document.documentElement.dataset.recordedFrames ?? 0) >= 3, null, {
    timeout: 60_000,
  });
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
