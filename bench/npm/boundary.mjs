// How values cross the WebAssembly boundary, measured: the choices behind docs/decisions.md
// ("The WebAssembly boundary"), on a module built with the feature `boundary-bench`, whose extra
// exports (crates/agent-input-wasm/src/bench.rs) run each way side by side.
//
//   options  the `convert` options { provider, tools } read through serde-wasm-bindgen into the
//            core's reader, through JSON.stringify and the core's JSON parser (no cache), and as
//            the package reads them (JSON.stringify, then the settings cached by that text).
//   reports  validateJson's report handed over as JSON text parsed by JSON.parse (the package),
//            or built as objects by serde-wasm-bindgen's JSON-compatible serializer; on a valid
//            request (no diagnostics) and on one with 1,000 errors.
//
// Run: AGENT_INPUT_WASM_FEATURES=boundary-bench AGENT_INPUT_NPM_OUT=target/npm/agent-input-bench \
//        bash scripts/build-npm && node bench/npm/boundary.mjs

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packageDir = process.env.AGENT_INPUT_PACKAGE ?? join(repo, 'target', 'npm', 'agent-input-bench');
const wasm = await import(pathToFileURL(join(packageDir, 'agent_input.js')).href);
wasm.initSync({ module: readFileSync(join(packageDir, 'agent_input_bg.wasm')) });
if (!wasm.benchOptionsSerde) throw new Error(`${packageDir} was not built with the feature boundary-bench`);

/** Median time per call in µs of `fn` called `n` times, over runs filling about 1 s. */
function perCall(fn, n) {
  for (let i = 0; i < n; i++) fn(); // warm up
  const samples = [];
  const start = performance.now();
  while (samples.length < 5 || (performance.now() - start < 1000 && samples.length < 200)) {
    const t = performance.now();
    for (let i = 0; i < n; i++) fn();
    samples.push(((performance.now() - t) * 1000) / n);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

const rows = [];
const row = (what, way, us) => rows.push([what, way, `${us.toFixed(2)} µs`]);

// Options: the bench's options (bench.mjs) and a larger set of ten tools.
const tool = (i) => ({ name: `tool_${i}`, description: `Tool number ${i}`, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });
for (const [what, options] of [
  ['options, 1 tool', { provider: 'bedrock-converse', tools: [tool(0)] }],
  ['options, 10 tools', { provider: 'bedrock-converse', maxTokens: 100, temperature: 0.5, tools: Array.from({ length: 10 }, (_, i) => tool(i)) }],
]) {
  assert.equal(wasm.benchOptionsSerde(options), 0);
  assert.equal(wasm.benchOptionsText(options), 0);
  assert.equal(wasm.benchOptionsCached(options), 0);
  row(what, 'serde-wasm-bindgen', perCall(() => wasm.benchOptionsSerde(options), 2000));
  row(what, 'JSON.stringify + parse', perCall(() => wasm.benchOptionsText(options), 2000));
  row(what, 'JSON.stringify + cache (package)', perCall(() => wasm.benchOptionsCached(options), 2000));
}

// Reports: a valid request, and one whose 1,000 blocks each have an error.
const valid = JSON.stringify({ input: 'What is the capital of France?' });
const bad = JSON.stringify({ input: Array.from({ length: 1000 }, () => ({ type: 'image', source: { type: 'base64', format: 'bmp', data: 'Qk0=' } })) });
for (const [what, text, n] of [['report, valid', valid, 5000], ['report, 1,000 errors', bad, 20]]) {
  assert.deepEqual(wasm.benchValidateSerde(text), wasm.validateJson(text));
  row(what, 'JSON text + JSON.parse (package)', perCall(() => wasm.validateJson(text), n));
  row(what, 'serde-wasm-bindgen json_compatible', perCall(() => wasm.benchValidateSerde(text), n));
}

console.log(`agent-input WebAssembly boundary, Node ${process.version}; median time per call\n`);
const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(`${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padStart(widths[2])}`);
