// `node www/optimise-wasm.mjs IN OUT [IN OUT …]`: each wasm file IN through binaryen's -Oz into
// OUT, byte for byte as `wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int`
// writes it, in one process. The build program (src/bin/attention-build/code.rs) runs it for a
// release build: with a wasm-opt process per file, binaryen's own start (a second each) for the
// two hundred chunks was most of the build's time.
import binaryen from 'binaryen';
import { readFileSync, writeFileSync } from 'node:fs';

const files = process.argv.slice(2);
if (files.length === 0 || files.length % 2) {
  console.error('usage: node www/optimise-wasm.mjs IN OUT [IN OUT …]');
  process.exit(2);
}
// -Oz, and Stack IR optimised as wasm-opt does when it writes at that level.
binaryen.setOptimizeLevel(2);
binaryen.setShrinkLevel(2);
binaryen.setGenerateStackIR(true);
binaryen.setOptimizeStackIR(true);
// wasm-opt 132's default features, with the two the chunks name (they have no target_features
// section; the main module's names no more than these).
const F = binaryen.Features;
const FEATURES = F.MutableGlobals | F.SignExt | F.NontrappingFPToInt | F.BulkMemory | F.BulkMemoryOpt
  | F.ReferenceTypes | F.Multivalue | F.CallIndirectOverlong | F.SIMD128;
for (let k = 0; k < files.length; k += 2) {
  const module = binaryen.readBinary(readFileSync(files[k]));
  module.setFeatures(FEATURES);
  module.optimize();
  writeFileSync(files[k + 1], module.emitBinary());
  module.dispose();
}
