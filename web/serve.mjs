// A static file server for web/dist (or the folder given), with the MIME types a browser
// needs for WebAssembly modules, and the precompressed `x.br` / `x.gz` beside a file `x` sent
// in its place with the matching Content-Encoding when the browser takes it (web/compress.mjs
// writes them): `node web/serve.mjs [dir] [port]`.
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

/** The encodings an Accept-Encoding header takes (a `q=0` refuses one). */
function acceptedEncodings(header = "") {
  const out = new Set();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && !(q && Number(q.slice(2)) === 0)) out.add(name);
  }
  return out;
}

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
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    const accepted = acceptedEncodings(req.headers["accept-encoding"]);
    for (const [encoding, suffix] of [["br", ".br"], ["gzip", ".gz"]]) {
      if (!accepted.has(encoding)) continue;
      try {
        const body = await readFile(file + suffix);
        res.writeHead(200, {
          "content-type": type,
          "content-encoding": encoding,
          "content-length": body.length,
          vary: "accept-encoding",
        });
        res.end(body);
        return;
      } catch {
        // Not precompressed this way: try the next, then the file itself.
      }
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": type, "content-length": body.length, vary: "accept-encoding" });
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
