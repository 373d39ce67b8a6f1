// The page's little server: a malformed escape in a path answers 400 and the server keeps
// serving; nothing outside the served folder is reachable, however the path is spelled.
//
//   node web/test/serve.mjs
import { request } from "node:http";
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
const server = await serve(root);
const port = server.address().port;

/** GET `path` exactly as written (no client-side normalisation). */
const get = (path) =>
  new Promise((ok, fail) => {
    const req = request({ host: "127.0.0.1", port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => ok({ status: res.statusCode, body }));
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
} finally {
  server.close();
  await rm(base, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("all server checks passed");
