// The page's little server: a malformed escape in a path answers 400 and the server keeps
// serving; nothing outside the served folder is reachable, however the path is spelled; a
// precompressed copy goes to a browser that takes its encoding, with the file's own type.
//
//   node web/test/serve.mjs
import { request } from "node:http";
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from "node:zlib";
import { mkdtemp, mkdir, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "../serve.mjs";

const base = await mkdtemp(join(tmpdir(), "murmur-serve-"));
const root = join(base, "dist");
await mkdir(root);
await mkdir(join(base, "dist-old"));
await writeFile(join(root, "index.html"), "<p>murmur</p>");
await writeFile(join(base, "dist-old", "secret.txt"), "secret");
await writeFile(join(base, "secret.txt"), "secret");
const module = Buffer.from("\0asm pretend module ".repeat(200));
await writeFile(join(root, "m.wasm"), module);
await writeFile(join(root, "m.wasm.br"), brotliCompressSync(module));
await writeFile(join(root, "m.wasm.gz"), gzipSync(module));
const server = await serve(root);
const port = server.address().port;

/** GET `path` exactly as written (no client-side normalisation). */
const get = (path, headers = {}) =>
  new Promise((ok, fail) => {
    const req = request({ host: "127.0.0.1", port, path, method: "GET", headers }, (res) => {
      const chunks = [];
      res.on("data", (d) => chunks.push(d));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        ok({ status: res.statusCode, body: raw.toString("latin1"), raw, headers: res.headers });
      });
    });
    req.on("error", fail);
    req.end();
  });

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

try {
  check((await get("/")).status === 200, "the page is served");
  for (const bad of ["/%", "/%zz", "/a%e0%a4%a"]) {
    const r = await get(bad);
    check(r.status === 400, `${bad} answers 400 (got ${r.status})`);
  }
  check((await get("/index.html")).status === 200, "and the server keeps serving");
  for (const escape of [
    "/..%2fdist-old%2fsecret.txt",
    "/%2e%2e%2fdist-old%2fsecret.txt",
    "/..%2f..%2fsecret.txt",
    "/..%5cdist-old%5csecret.txt",
    "/../dist-old/secret.txt",
    "/%00",
  ]) {
    const r = await get(escape);
    check(r.status !== 200 && !r.body.includes("secret"), `${escape} does not leave the folder (${r.status})`);
  }
  check((await get("/nope.html")).status === 404, "a missing file is 404");

  // Precompressed copies: brotli first, then gzip, else the file; always the file's own type.
  const unpack = { br: brotliDecompressSync, gzip: gunzipSync, undefined: (b) => b };
  for (const [accept, expected] of [
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["", undefined],
  ]) {
    const r = await get("/m.wasm", { "accept-encoding": accept });
    const encoding = r.headers["content-encoding"];
    const same = encoding === expected && unpack[encoding](r.raw).equals(module);
    check(
      r.status === 200 && same && r.headers["content-type"] === "application/wasm",
      `accept-encoding "${accept}": ${expected ?? "identity"}, application/wasm (got ${encoding ?? "identity"}, ${r.headers["content-type"]})`,
    );
  }
  const plain = await get("/index.html", { "accept-encoding": "br" });
  check(plain.headers["content-encoding"] === undefined && plain.body === "<p>murmur</p>", "a file with no precompressed copy is sent as it is");
} finally {
  server.close();
  await rm(base, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("all server checks passed");
