// The page on a touch screen, in headless Chromium with touch emulated (fingers sent through the
// DevTools protocol, as a phone's would come): a tap places the leader where it was, pinching
// out zooms in about the fingers, a second finger's tap removes the leader, and dragging one
// finger steers the gold bird towards it. Screenshots go to the shots folder.
//
//   node web/test/touch.mjs [dist] [shots]

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../serve.mjs";
import { SIZE, checks, isCrimson, launch, matching, pixels, started } from "./lib.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = process.argv[2] ?? join(here, "..", "dist");
const shots = process.argv[3] ?? join(here, "shots");
const { check, failures } = checks();
// The longest the drag may take to steer the bird 100 px closer (and the control's wait). The
// bird flies at the page's frame rate: SwiftShader gives 3 frames a second on a slow two-core
// Xeon, where the bird closed 100 px in about 6 s; 15 s leaves room for a busier machine.
const DRAG_MS = 15_000;
// The same colour test as the native screenshot test's (tests/common/mod.rs).
const isGold = ([r, g, b]) => r > 200 && g >= 140 && g < 235 && b < 90;
const centroid = (points) => points.length === 0 ? null : [
  points.reduce((s, p) => s + p[0], 0) / points.length,
  points.reduce((s, p) => s + p[1], 0) / points.length,
];

await mkdir(shots, { recursive: true });
const server = await serve(dist);
const browser = await launch();
const errors = [];
try {
  const context = await browser.newContext({ viewport: SIZE, hasTouch: true });
  const page = await context.newPage();
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  // The panel closed (as a phone's narrow screen would want it), so that the touches are the
  // world's, and the help text off.
  await page.goto(`http://127.0.0.1:${server.address().port}/?seed=3`);
  await started(page);
  await page.waitForTimeout(4_000);
  await page.locator("#murmur").focus();
  await page.keyboard.press("p");
  await page.waitForTimeout(1_000);

  const cdp = await context.newCDPSession(page);
  /** Sends one touch event of `type` for these fingers (`[x, y, id]` each): the fingers down
   *  for touchStart and touchMove, those lifted for touchEnd (none: all). */
  const fingers = (type, points) => cdp.send("Input.dispatchTouchEvent", {
    type,
    touchPoints: points.map(([x, y, id]) => ({ x, y, id, radiusX: 4, radiusY: 4, force: 1 })),
  });
  const shot = async (name) => {
    const png = await page.screenshot();
    await writeFile(join(shots, name), png);
    return pixels(png);
  };

  // A tap places the leader where the finger was.
  const tap = [640, 360];
  await fingers("touchStart", [[...tap, 0]]);
  await page.waitForTimeout(60);
  await fingers("touchEnd", []);
  await page.waitForTimeout(1_500);
  const placed = await shot("touch-1-tap.png");
  const crimson = matching(placed, isCrimson);
  const at = centroid(crimson);
  check(
    crimson.length >= 20 && Math.hypot(at[0] - tap[0], at[1] - tap[1]) < 25,
    `a tap places the leader there (${crimson.length} crimson pixels${at ? `, ${Math.hypot(at[0] - tap[0], at[1] - tap[1]).toFixed(1)} px from the tap` : ""})`,
  );

  // Pinching out, about the leader, zooms in: the leader is drawn bigger, still there.
  await fingers("touchStart", [[540, 360, 1], [740, 360, 2]]);
  for (let i = 1; i <= 10; i++) {
    await fingers("touchMove", [[540 - 10 * i, 360, 1], [740 + 10 * i, 360, 2]]);
    await page.waitForTimeout(30);
  }
  await fingers("touchEnd", []);
  await page.waitForTimeout(1_000);
  const zoomed = await shot("touch-2-pinched.png");
  const bigger = matching(zoomed, isCrimson);
  const after = centroid(bigger);
  check(
    bigger.length > 2.5 * crimson.length && after && Math.hypot(after[0] - tap[0], after[1] - tap[1]) < 60,
    `pinching out zooms in about the fingers (the leader: ${crimson.length} -> ${bigger.length} crimson pixels${after ? `, ${Math.hypot(after[0] - tap[0], after[1] - tap[1]).toFixed(1)} px from the middle` : ""})`,
  );

  // A second finger's tap, while one rests, removes the leader.
  await fingers("touchStart", [[300, 550, 3]]);
  await page.waitForTimeout(100);
  await fingers("touchStart", [[300, 550, 3], [450, 550, 4]]);
  await page.waitForTimeout(60);
  // Chromium lifts the fingers a touchEnd lists (all of them when it lists none).
  await fingers("touchEnd", [[450, 550, 4]]);
  await page.waitForTimeout(200);
  await fingers("touchEnd", []);
  await page.waitForTimeout(1_500);
  const removed = matching(await shot("touch-3-second-finger.png"), isCrimson);
  check(removed.length < 5, `a second finger's tap removes the leader (${removed.length} crimson pixels left)`);

  // Dragging steers the gold bird towards the finger. Zoomed back out first (pinching in).
  await fingers("touchStart", [[340, 360, 5], [940, 360, 6]]);
  for (let i = 1; i <= 10; i++) {
    await fingers("touchMove", [[340 + 22 * i, 360, 5], [940 - 22 * i, 360, 6]]);
    await page.waitForTimeout(30);
  }
  await fingers("touchEnd", []);
  await page.waitForTimeout(1_000);
  // A negative control: left alone for as long as the drag below may take, the bird does not
  // close on a point 250 px away.
  const alone = centroid(matching(await shot("touch-4-alone.png"), isGold));
  await page.waitForTimeout(DRAG_MS);
  const before = centroid(matching(await shot("touch-4-before-drag.png"), isGold));
  check(before !== null && alone !== null, `the gold bird is on screen (${before?.map((v) => v.toFixed(0))})`);
  if (alone && before) {
    const side = alone[0] < 640 ? 1 : -1;
    const point = [alone[0] + side * 250, alone[1]];
    const closed = Math.hypot(point[0] - alone[0], point[1] - alone[1]) - Math.hypot(point[0] - before[0], point[1] - before[1]);
    check(closed < 100, `left alone, it does not fly there by itself (closed ${closed.toFixed(0)} px of 250)`);
  }
  if (before) {
    // The finger lands 250 px to one side, across the middle from the bird, and stays.
    const side = before[0] < 640 ? 1 : -1;
    const target = [before[0] + side * 250, before[1]];
    await fingers("touchStart", [[target[0] - side * 30, target[1], 7]]);
    await fingers("touchMove", [[target[0], target[1], 7]]);
    // The bird flies at the page's frame rate, which a busy machine lowers: look every half
    // second until it has closed 100 px, for at most as long as the control waited.
    const was = Math.hypot(target[0] - before[0], target[1] - before[1]);
    const started = Date.now();
    let now = Infinity;
    while (Date.now() - started < DRAG_MS) {
      await page.waitForTimeout(500);
      const later = centroid(matching(await shot("touch-5-dragged.png"), isGold));
      now = later ? Math.hypot(target[0] - later[0], target[1] - later[1]) : Infinity;
      if (now < was - 100) break;
    }
    await fingers("touchEnd", []);
    check(now < was - 100, `dragging steers the gold bird to the finger (${was.toFixed(0)} -> ${now.toFixed(0)} px from it)`);
  }
  check(errors.length === 0, `no errors in the console${errors.length ? ": " + errors.join(" | ") : ""}`);
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.error(`${failures.length} check(s) failed; screenshots in ${shots}`);
  process.exit(1);
}
console.log(`all touch checks passed; screenshots in ${shots}`);
