// Runs a wasm32-wasip1 program (a test binary cargo built) under Node's WASI, as cargo's
// `runner` for that target: node scripts/wasi-run.mjs FILE.wasm [ARGS...]. The program sees its
// arguments, the environment and the file system from / (tests read files by absolute path),
// and its exit code is this script's.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import process from 'node:process';

const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  console.error(`scripts/wasi-run.mjs needs Node.js 20 or newer (WASI preview 1 without a flag); this is ${process.version}`);
  process.exit(2);
}
const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/wasi-run.mjs FILE.wasm [ARGS...]');
  process.exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: [file, ...args],
  env: process.env,
  preopens: { '/': '/', '.': process.cwd() },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exit(wasi.start(instance));
