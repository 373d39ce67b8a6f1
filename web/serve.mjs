// A static file server for web/dist (or the folder given), with the MIME types a browser
// needs for WebAssembly modules: `node web/serve.mjs [dir] [port]`.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
};

/** Serves `dir` on `port` (0: any free port); resolves to the server once it listens. */
export function serve(dir, port = 0) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      // A malformed escape (`%`, `%zz`): the request's fault, and the server carries on.
      res.writeHead(400).end("bad request");
      return;
    }
    const file = resolve(root, "." + (path === "/" ? "/index.html" : path));
    // Inside the served folder only: `/..%2fdist-old/x` decodes to a path beside it, which a
    // plain prefix test (`/dist` of `/dist-old`) would let through.
    if (path.includes("\0") || !(file === root || file.startsWith(root + sep))) {
      res.writeHead(403).end("forbidden");
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((ok) => server.listen(port, "127.0.0.1", () => ok(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? join(fileURLToPath(new URL(".", import.meta.url)), "dist");
  const server = await serve(dir, Number(process.argv[3] ?? 8080));
  console.log(`serving ${dir} on http://127.0.0.1:${server.address().port}/`);
}
