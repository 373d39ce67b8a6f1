// Precompresses the page's files for web/serve.mjs (or any server that serves `x.br` / `x.gz`
// for `x` with the matching Content-Encoding): brotli at its best quality and largest window,
// and gzip for browsers without brotli.
//
//   node web/compress.mjs web/dist
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node web/compress.mjs DIR");
  process.exit(2);
}
for (const name of await readdir(dir)) {
  if (!/\.(wasm|js|html)$/.test(name)) continue;
  const body = await readFile(join(dir, name));
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = gzipSync(body, { level: 9 });
  await writeFile(join(dir, name + ".br"), br);
  await writeFile(join(dir, name + ".gz"), gz);
  const mb = (n) => (n / 1e6).toFixed(2);
  console.log(`${name}: ${mb(body.length)} MB, brotli ${mb(br.length)} MB, gzip ${mb(gz.length)} MB`);
}
