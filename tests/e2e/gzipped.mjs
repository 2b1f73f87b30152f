// A folder served as static hosts do: every file gzipped, for the measurements (first_edit.mjs,
// on_demand_time.mjs). Not the tests' server (harness.mjs), which sends the CSP and no gzip.
import { createServer } from 'node:http';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, extname, normalize } from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.txt': 'text/plain' };

/** Serves `root` on a free port of 127.0.0.1; resolves to the listening server. */
export function serveGzipped(root) {
  const zipped = new Map();
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).slice(1) || 'index.html';
    const file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) return res.writeHead(404).end();
    const body = zipped.get(file) ?? zipped.set(file, gzipSync(readFileSync(file))).get(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-encoding': 'gzip', 'cache-control': 'no-cache' }).end(body);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}
