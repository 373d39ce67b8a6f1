// What the page's browser tests share: headless Chromium (Debian's, driven by playwright-core),
// a page opened and waited for, checks that are counted, and the pixel tests of what a person
// would see.

import { chromium } from "playwright-core";
import { PNG } from "pngjs";

/** The page's size in the tests (as the window's default). */
export const SIZE = { width: 1280, height: 720 };

/** Starts headless Chromium with WebGL2 on the CPU (no GPU here). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--ignore-gpu-blocklist",
    ],
  });
}

/** Counted checks: `check(ok, what)` prints and remembers a failure; `failures` lists them. */
export function checks() {
  const failures = [];
  const check = (ok, what) => {
    console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
    if (!ok) failures.push(what);
    return ok;
  };
  return { check, failures };
}

/**
 * Opens `address` in a new page of `context` (a browser or a browser context), collecting the
 * console into `logs` and errors into `errors`, and waits until the app runs (the loading
 * note gone) and a few seconds more for its first frames.
 */
export async function open(context, address, { logs, errors, settle = 6_000, options = {} }) {
  const page = await context.newPage({ viewport: SIZE, ...options });
  page.on("console", (msg) => {
    logs.push(`${msg.type()}: ${msg.text()}`);
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(address);
  await started(page);
  await page.waitForTimeout(settle);
  return page;
}

/** Waits until the page's app runs (its loading note gone). */
export async function started(page) {
  await page.locator("#murmur").waitFor();
  // The first frames come after the wasm module is compiled and the pipelines are built.
  await page.waitForFunction(() => document.getElementById("loading") === null, null, {
    timeout: 120_000,
  });
}

/** Pixels of a screenshot as [r, g, b] per pixel, row by row. */
export function pixels(png) {
  const img = PNG.sync.read(png);
  return { width: img.width, height: img.height, at: (x, y) => {
    const i = (y * img.width + x) * 4;
    return [img.data[i], img.data[i + 1], img.data[i + 2]];
  } };
}

// The same colour tests as the native screenshot test (tests/screenshot.rs).
export const isBird = ([r, g, b]) => g < 120 && b > 60 && r < 150;
export const isCrimson = ([r, g, b]) => r > 170 && g < 80 && b >= 20 && b < 120;
export const isSky = ([r, g, b]) => Math.abs(r - 112) < 30 && Math.abs(g - 231) < 30 && b > 220;
/** An OLED's lit pixel (murmur_oled's OLED_LIT, 190 225 255). */
export const isLit = ([r, g, b]) => Math.abs(r - 190) < 25 && Math.abs(g - 225) < 25 && b > 230;

/** Points matching `test` inside `box` (default: away from the text along top and bottom). */
export function matching(pic, test, box = { x0: 0, y0: 60, x1: pic.width, y1: pic.height - 60 }) {
  const out = [];
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      if (test(pic.at(x, y))) out.push([x, y]);
    }
  }
  return out;
}
