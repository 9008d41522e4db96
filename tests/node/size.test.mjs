// The base module's size budget, 140 KiB gzip (140,638 B measured with provider fields of the
// request, its messages and its tools; 127,278 B with JSON tool results, the
// efforts and Gemini call ids; 125,068 B with provider items, 123,397 B before them; 121 KiB before provider items, 120 KiB before sizes in KB and MB in every size
// message; the model table left out;
// docs/decisions/npm.md "The base module's size"), reached by wasm-opt's one-caller inlining left
// off, parseResponse in its own entry (`agent-input/response`), one hash table for every set of
// strings and a base64 decoder of the core's own, with the payload splice and simd128 scan inside
// it. Node's zlib reads about 1% more than `gzip -9`.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

import { projectDir } from './package.mjs';

const BUDGET = 140 * 1024;
const installed = join(projectDir, 'node_modules', 'agent-input');

test('the .wasm is within 140 KiB gzip', (t) => {
  const wasm = readFileSync(join(installed, 'agent_input_bg.wasm'));
  const gzip = gzipSync(wasm, { level: 9 }).length;
  t.diagnostic(`agent_input_bg.wasm: ${wasm.length} B raw, ${gzip} B gzip (budget ${BUDGET} B)`);
  assert.ok(gzip <= BUDGET, `${gzip} B gzip is over the budget of ${BUDGET} B`);
});

test('the JavaScript a browser loads is small', () => {
  let total = 0;
  for (const file of ['index.js', 'agent_input.js']) total += gzipSync(readFileSync(join(installed, file)), { level: 9 }).length;
  assert.ok(total < 8 * 1024, `${total} B gzip of JavaScript`);
});

// `agent-input/schema` carries a JSON Schema validator in its own module, loaded only by those
// who import that entry, built without the base entry's exports. The limit is
// 300 KB: boon with its patterns on JavaScript's RegExp measures 254,629 B (Node's zlib;
// 249,157 B by gzip -9); the budget (that + about 5%) keeps it from growing unnoticed.
const SCHEMA_BUDGET = 262 * 1024;

test('the schema entry has its own .wasm, within 262 KiB gzip', (t) => {
  const wasm = readFileSync(join(installed, 'agent_input_schema_bg.wasm'));
  const gzip = gzipSync(wasm, { level: 9 }).length;
  t.diagnostic(`agent_input_schema_bg.wasm: ${wasm.length} B raw, ${gzip} B gzip (budget ${SCHEMA_BUDGET} B)`);
  assert.ok(gzip <= SCHEMA_BUDGET, `${gzip} B gzip is over the budget of ${SCHEMA_BUDGET} B`);
  // The base entry must not load it.
  for (const file of ['index.js', 'node.js', 'agent_input.js']) {
    assert.ok(!readFileSync(join(installed, file), 'utf8').includes('schema_bg'), `${file} loads the schema module`);
  }
});
