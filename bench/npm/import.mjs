// `importRequest` of agent-input/import in its three forms, on the OpenAI Chat requests of the
// Lingua benchmark (bench/lingua/workloads.mjs: small texts, one large image, a 2,000-message
// conversation, multimodal turns), converted to each target provider:
//
//   full      importRequest('openai-chat', text, { to }): the standard request, its options and
//             the target body, as objects.
//   body      { to, only: 'body' }: the target body alone, as an object.
//   bodyJson  { to, only: 'bodyJson' }: the target body alone, as JSON text, ready to send.
//
// The three take turns request by request, each call timed alone (as bench.mjs); before timing,
// the body-only forms are checked to carry the full form's body. Node's module
// (import-node.js), or with --size the browsers' (agent_input_import_bg.wasm).
//
// Run: bash scripts/build-npm && node bench/npm/import.mjs [--quick] [--size] [--target ID ...] [--workload NAME ...]

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { WORKLOADS } from '../lingua/workloads.mjs';
import { timeInTurns } from '../turns.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packageDir = process.env.AGENT_INPUT_PACKAGE ?? join(repo, 'target', 'npm', 'agent-input');
const version = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
const size = process.argv.includes('--size');
let importRequest;
if (size) {
  const glue = await import(pathToFileURL(join(packageDir, 'agent_input_import.js')).href);
  glue.initSync({ module: readFileSync(join(packageDir, 'agent_input_import_bg.wasm')) });
  importRequest = glue.importRequest;
} else {
  ({ importRequest } = await import(pathToFileURL(join(packageDir, 'import-node.js')).href));
}
const quick = process.argv.includes('--quick');

const TARGETS = ['bedrock-converse', 'openai-responses', 'anthropic-messages', 'gemini'];

const given = (flag) => process.argv.flatMap((arg, i, all) => (all[i - 1] === flag ? [arg] : []));
const targets = given('--target').length ? given('--target') : TARGETS;
const names = given('--workload');
const workloads = names.length ? WORKLOADS.filter(([name]) => names.includes(name)) : WORKLOADS;

console.log(`agent-input ${version} importRequest from openai-chat, ${size ? 'browsers\' module (size)' : 'Node\'s module (speed)'}, Node ${process.version}`);
console.log('median wall time per workload run; gain = full / bodyJson\n');
const header = ['target', 'workload', 'full', 'body', 'bodyJson', 'gain'];
const rows = [];
for (const [name, make] of workloads) {
  const texts = make().map((r) => JSON.stringify(r));
  for (const to of targets) {
    const full = importRequest('openai-chat', texts[0], { to });
    assert.ok(full.ok, JSON.stringify(full.errors));
    assert.deepEqual(importRequest('openai-chat', texts[0], { to, only: 'body' }).body, full.body);
    assert.deepEqual(JSON.parse(importRequest('openai-chat', texts[0], { to, only: 'bodyJson' }).body), full.body);
    const run = (options) => (i) => {
      if (!importRequest('openai-chat', texts[i], options).ok) throw new Error(`${name} to ${to} failed`);
    };
    const [tFull, tBody, tJson] = timeInTurns(
      [run({ to }), run({ to, only: 'body' }), run({ to, only: 'bodyJson' })],
      texts.length,
      quick ? 300 : 2000,
    );
    rows.push([to, name, `${tFull.toFixed(2)} ms`, `${tBody.toFixed(2)} ms`, `${tJson.toFixed(2)} ms`, `${(tFull / tJson).toFixed(2)}x`]);
  }
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i <= 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
