// The page's board mirror over Web Serial, in headless Chromium with a stand-in for
// `navigator.serial` installed before the page loads (its ports' streams fed by this test):
//
// (a) a real stream, recorded from `murmur board --fast` through `murmur mirror --record`, with
//     flipped bits, noise, a reset, and a run of frames cut out here: the page's counters equal
//     `murmur replay`'s on the same bytes;
// (b) the stream with one bird's x changed in one frame (CRC made good again): the page reports
//     the divergence at that tick, bird and field, as `murmur replay` does;
// (c) a port the page was already given is opened without a click, unplugged mid-stream, and a
//     new one granted: the page says it is waiting, then reconnects and goes on mirroring;
// and a browser without Web Serial gets a note instead of the button. The mirror view's
// screenshot goes to the shots folder.
//
//   node web/test/mirror.mjs [dist] [murmur binary] [shots]
//
// With MIRROR_DEBUG=1 it also prints the pages' console (the app's log lines).

import { spawn, execFileSync } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../serve.mjs";
import { SIZE, checks, isLit, launch, matching, pixels, started } from "./lib.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = process.argv[2] ?? join(here, "..", "dist");
const murmur = process.argv[3] ?? join(here, "..", "..", "target", "debug", "murmur");
const shots = process.argv[4] ?? join(here, "shots");
const { check, failures } = checks();

// --- The stream: a virtual board with faults, recorded by the native mirror. ---

/** Records `murmur board --pty --fast ARGS` as `murmur mirror --record` receives it. */
async function record(file, boardArgs, frames) {
  const board = spawn(murmur, ["board", "--pty", "--fast", ...boardArgs], { stdio: ["ignore", "pipe", "inherit"] });
  const [pty] = await new Promise((ok) => createInterface({ input: board.stdout }).once("line", (l) => ok([l.trim()])));
  try {
    execFileSync(murmur, ["mirror", "--port", pty, "--headless", "--frames", String(frames), "--timeout-s", "60", "--record", file], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  } finally {
    board.kill();
  }
  return readFile(file);
}

/** `murmur replay FILE --json`: the native mirror's counters on these bytes. */
function replay(file) {
  try {
    return JSON.parse(execFileSync(murmur, ["replay", file, "--json"], { encoding: "utf8" }));
  } catch (e) {
    // A divergence exits non-zero, with the report on stdout all the same.
    if (e.stdout) return JSON.parse(e.stdout);
    throw e;
  }
}

// --- The frame format (../shared/docs/serial-protocol.md), written here independently of
// murmur_board_link to tamper with a frame and make it good again. ---

function crc32mpeg2(bytes) {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b << 24;
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    crc >>>= 0;
  }
  return crc >>> 0;
}

function cobsDecode(block) {
  const out = [];
  for (let i = 0; i < block.length;) {
    const code = block[i++];
    if (code === 0) return null;
    for (let j = 1; j < code; j++) {
      if (i >= block.length) return null;
      out.push(block[i++]);
    }
    if (code < 0xff && i < block.length) out.push(0);
  }
  return Uint8Array.from(out);
}

function cobsEncode(data) {
  const out = [0];
  let codeAt = 0, code = 1;
  for (const b of data) {
    if (b === 0) {
      out[codeAt] = code; codeAt = out.length; out.push(0); code = 1;
    } else {
      out.push(b); code++;
      if (code === 0xff) { out[codeAt] = code; codeAt = out.length; out.push(0); code = 1; }
    }
  }
  out[codeAt] = code;
  return Uint8Array.from(out);
}

/** Every `0x00`-delimited segment of `bytes`: [start, end) without the delimiter. */
function segments(bytes) {
  const out = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0) { out.push([start, i]); start = i + 1; }
  }
  return out;
}

/** The stream with bird `bird`'s x one unit off in the first good FLOCK at or after `tick`. */
function tamper(bytes, tick, bird) {
  for (const [s, e] of segments(bytes)) {
    const frame = cobsDecode(bytes.subarray(s, e));
    if (!frame || frame.length < 10 || frame[0] !== 2) continue;
    const payload = frame.subarray(0, frame.length - 4);
    const view = new DataView(frame.buffer);
    if (crc32mpeg2(payload) !== view.getUint32(frame.length - 4, true)) continue;
    const at = view.getUint32(1, true);
    if (at < tick || bird >= payload[5]) continue;
    const x = view.getInt16(6 + 6 * bird, true);
    view.setInt16(6 + 6 * bird, x === 32767 ? x - 1 : x + 1, true);
    const good = new Uint8Array(payload.length + 4);
    good.set(payload);
    new DataView(good.buffer).setUint32(payload.length, crc32mpeg2(payload), true);
    const encoded = cobsEncode(good);
    return { tick: at, bytes: Buffer.concat([bytes.subarray(0, s), encoded, bytes.subarray(e)]) };
  }
  throw new Error(`no good FLOCK at or after tick ${tick}`);
}

// --- A stand-in for Web Serial, installed before the page's own script runs. ---

function fakeSerial({ granted }) {
  class FakePort extends EventTarget {
    constructor() {
      super();
      this.readable = null;
      this.options = null;
      this.controller = null;
    }
    getInfo() { return { usbVendorId: 0x0d28, usbProductId: 0x0204 }; }
    async open(options) {
      if (this.readable) throw new DOMException("The port is already open.", "InvalidStateError");
      this.options = options;
      this.readable = new ReadableStream({ start: (c) => { this.controller = c; } });
    }
    async close() { this.readable = null; }
  }
  const ports = [];
  const allowed = [];
  const serial = new EventTarget();
  serial.requestPort = async () => {
    const port = new FakePort();
    ports.push(port);
    allowed.push(port);
    return port;
  };
  serial.getPorts = async () => allowed.slice();
  const control = {
    ports,
    /** Feeds base64 bytes to port `i` in chunks of uneven size, as a USB port delivers them. */
    feed(i, b64) {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      let seed = 7;
      for (let at = 0; at < bytes.length;) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const n = 1 + (seed % 700);
        ports[i].controller.enqueue(bytes.slice(at, at + n));
        at += n;
      }
    },
    end(i) { ports[i].controller.close(); },
    /** The device goes: its stream fails, and (as in Chrome) getPorts() no longer lists it. */
    unplug(i) {
      ports[i].controller.error(new DOMException("The device has been lost.", "NetworkError"));
      ports[i].readable = null;
      allowed.splice(allowed.indexOf(ports[i]), 1);
      serial.dispatchEvent(new Event("disconnect"));
    },
    /** A new port the user allowed elsewhere (plugged in): the page hears `connect`. */
    grant() {
      const port = new FakePort();
      ports.push(port);
      allowed.push(port);
      serial.dispatchEvent(new Event("connect"));
    },
  };
  for (let i = 0; i < granted; i++) {
    const port = new FakePort();
    ports.push(port);
    allowed.push(port);
  }
  window.fakeSerial = control;
  Object.defineProperty(Navigator.prototype, "serial", { get: () => serial, configurable: true });
}

function noSerial() {
  Object.defineProperty(Navigator.prototype, "serial", { get: () => undefined, configurable: true });
}

// --- The tests. ---

await mkdir(shots, { recursive: true });
const work = await mkdtemp(join(tmpdir(), "murmur-mirror-"));
const server = await serve(dist);
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
const errors = [];
const COUNTERS = [
  "frames_ok", "frames_compared", "frames_unchecked", "hellos", "crc_errors", "framing_errors",
  "unknown_kind", "lost_frames", "resets", "last_tick", "in_sync", "first_divergence",
];
const pick = (r) => Object.fromEntries(COUNTERS.map((k) => [k, r?.[k] ?? null]));
const same = (a, b) => JSON.stringify(pick(a)) === JSON.stringify(pick(b));

/** A page with the stand-in (or none, with `init` noSerial), started. */
async function page(init, arg) {
  const context = await browser.newContext({ viewport: SIZE });
  await context.addInitScript(init, arg);
  const p = await context.newPage();
  p.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
    if (process.env.MIRROR_DEBUG && !m.text().includes("DEBUG")) console.log("  console:", m.text().slice(0, 200));
  });
  p.on("pageerror", (e) => errors.push(String(e)));
  await p.goto(url);
  await started(p);
  return p;
}

const report = (p) => p.evaluate(() => window.murmurBoard.report());
/** Waits until the page has opened port `i` of the stand-in. */
const opened = (p, i) =>
  p.waitForFunction((i) => window.fakeSerial.ports[i]?.readable != null, i, { timeout: 10_000 }).catch(async (e) => {
    const state = await p.evaluate(() => ({
      ports: window.fakeSerial.ports.length,
      note: document.getElementById("board-note").textContent,
      hidden: document.getElementById("board").hidden,
    }));
    await writeFile(join(shots, "mirror-not-opened.png"), await p.screenshot());
    throw new Error(`port ${i} was not opened: ${JSON.stringify(state)} (${e.message})`);
  });

/** Waits until the page's report satisfies `done` (or 30 s), and returns it. */
async function until(p, done) {
  const t0 = Date.now();
  let r = await report(p);
  while (!done(r) && Date.now() - t0 < 30_000) {
    await p.waitForTimeout(250);
    r = await report(p);
  }
  return r;
}

try {
  const recorded = await record(join(work, "recorded.bin"), [
    "--ticks", "900", "--flip-every", "37", "--noise-every", "53", "--reset-at", "500",
  ], 700);
  // A run of frames lost on the line: about 25 ticks' worth of bytes cut out of the middle.
  const cutAt = Math.floor(recorded.length * 0.3);
  const faulty = Buffer.concat([recorded.subarray(0, cutAt), recorded.subarray(cutAt + 25 * 301)]);
  await writeFile(join(work, "faulty.bin"), faulty);
  const native = replay(join(work, "faulty.bin"));
  check(
    native.crc_errors > 0 && native.framing_errors + native.crc_errors > 10 && native.lost_frames >= 20 && native.resets === 1 && native.in_sync,
    `the recorded stream has its faults (native: ${native.frames_ok} frames, CRC ${native.crc_errors}, framing ${native.framing_errors}, lost ${native.lost_frames}, resets ${native.resets})`,
  );

  // (a) The button, the chooser, and the same counters as the native mirror.
  {
    const p = await page(fakeSerial, { granted: 0 });
    await p.click("#connect");
    await opened(p, 0);
    const options = await p.evaluate(() => window.fakeSerial.ports[0]?.options);
    check(options?.baudRate === 115200, `the button asks for a port and opens it at 115200 baud (${JSON.stringify(options)})`);
    await p.evaluate((b64) => { window.fakeSerial.feed(0, b64); window.fakeSerial.end(0); }, faulty.toString("base64"));
    const r = await until(p, (r) => r && r.frames_ok === native.frames_ok && r.connected === null);
    check(same(r, native), `the page's counters equal murmur replay's on the same bytes\n       page:   ${JSON.stringify(pick(r))}\n       native: ${JSON.stringify(pick(native))}`);
    check(r?.problem?.includes("closed"), `the end of the stream is reported (${r?.problem})`);
    await p.close();
  }

  // The mirror view, live: the board and the local model side by side, under the status line.
  {
    const p = await page(fakeSerial, { granted: 0 });
    await p.click("#connect");
    await opened(p, 0);
    const half = recorded.subarray(0, Math.floor(recorded.length * 0.4));
    await p.evaluate((b64) => window.fakeSerial.feed(0, b64), half.toString("base64"));
    await until(p, (r) => r && r.frames_ok > 100);
    await p.waitForTimeout(1_500);
    const shot = await p.screenshot();
    await writeFile(join(shots, "mirror.png"), shot);
    const pic = pixels(shot);
    // The screens: 384x192 each at (12, 96) and (412, 96).
    const lit = [0, 1].map((i) => matching(pic, isLit, { x0: 12 + 400 * i, y0: 96, x1: 396 + 400 * i, y1: 288 }).length);
    check(lit.every((n) => n > 100), `both screens show birds (lit pixels: board ${lit[0]}, local model ${lit[1]})`);
    const r = await report(p);
    check(r.in_sync && r.connected !== null, `connected and in sync (${r.status})`);
    await p.close();
  }

  // (b) A tampered frame: the divergence at its tick, bird and field.
  {
    const { tick, bytes } = tamper(faulty, 200, 5);
    await writeFile(join(work, "tampered.bin"), bytes);
    const nativeT = replay(join(work, "tampered.bin"));
    const p = await page(fakeSerial, { granted: 0 });
    await p.click("#connect");
    await opened(p, 0);
    await p.evaluate((b64) => { window.fakeSerial.feed(0, b64); window.fakeSerial.end(0); }, bytes.toString("base64"));
    const r = await until(p, (r) => r && r.connected === null && r.frames_ok === nativeT.frames_ok);
    const d = r?.first_divergence;
    check(
      d?.tick === tick && d?.bird === 5 && d?.field === "x" && !r.in_sync,
      `a bird's x changed at tick ${tick}: the page reports ${JSON.stringify(d)}, ${r?.status}`,
    );
    check(same(r, nativeT), `and agrees with murmur replay (${JSON.stringify(nativeT.first_divergence)})`);
    await writeFile(join(shots, "mirror-diverged.png"), await p.screenshot());
    await p.close();
  }

  // (c) A port given before opens without a click; unplugged, then a new one is granted.
  {
    const p = await page(fakeSerial, { granted: 1 });
    const without = await opened(p, 0).then(() => true, () => false);
    check(without, "a port the page was already given is opened without the chooser");
    const split = Math.floor(recorded.length * 0.25);
    await p.evaluate((b64) => window.fakeSerial.feed(0, b64), recorded.subarray(0, split).toString("base64"));
    const before = await until(p, (r) => r && r.frames_ok > 50);
    await p.waitForTimeout(500);
    await p.evaluate(() => window.fakeSerial.unplug(0));
    const gone = await until(p, (r) => r && r.connected === null);
    check(gone.connected === null && /lost/.test(gone.problem ?? ""), `unplugged: the page says so (${gone.problem})`);
    await writeFile(join(shots, "mirror-unplugged.png"), await p.screenshot());
    await p.evaluate(() => window.fakeSerial.grant());
    const back = await until(p, (r) => r && r.connected !== null);
    await opened(p, 1);
    check(back.connected !== null, `a new port granted: reconnected (${back.connected})`);
    await p.evaluate((b64) => window.fakeSerial.feed(1, b64), recorded.subarray(split).toString("base64"));
    const after = await until(p, (r) => r && r.frames_ok > before.frames_ok + 300);
    check(
      after.frames_ok > before.frames_ok + 300 && after.in_sync && after.first_divergence === null,
      `and goes on mirroring, in sync (${before.frames_ok} frames before, ${after.frames_ok} after)`,
    );
    await p.close();
  }

  // No Web Serial: a note, not a button.
  {
    const p = await page(noSerial);
    await p.waitForTimeout(500);
    const buttons = await p.locator("#connect").count();
    const note = await p.locator("#board-note").textContent();
    check(buttons === 0 && /Web Serial/.test(note ?? ""), `without Web Serial the page says what it needs ("${note}")`);
    await p.close();
  }
  check(errors.length === 0, `no errors in the console${errors.length ? ": " + errors.join(" | ") : ""}`);
} finally {
  await browser.close();
  server.close();
  await rm(work, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`${failures.length} check(s) failed; screenshots in ${shots}`);
  process.exit(1);
}
console.log(`all mirror checks passed; screenshots in ${shots}`);
