// Post-build step (www/post-build.mjs): the trained model beside the app, as the one float16
// file the page fetches when the learner opens it (models/all-minilm-l6-v2.safetensors, 45.7
// MB; never in the first download). Packed once from the folder www/pretrained.mjs unpacks
// (`attention-trace --pack`), then linked into each build; without the folder the build goes
// on and the page says the model cannot be fetched.
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
  mkdirSync(join(dir, 'models'), { recursive: true });
  const out = join(dir, 'models', 'all-minilm-l6-v2.safetensors');
  try {
    linkSync(packed, out);
  } catch {
    copyFileSync(packed, out);
  }
}
