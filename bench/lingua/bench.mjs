// The npm package's `agent-input/import` beside Lingua's own conversion, on the four workloads of
// the core's benchmark written as OpenAI Chat Completions requests (workloads.mjs), in one run.
//
//   agent-input  importRequest('openai-chat', requestText, { to, only: 'body' }): parse the OpenAI
//                Chat body, import it into the standard request and options, validate, convert to
//                the target and hand the body alone back as a JavaScript object, in WebAssembly.
//                `only: 'body'` because Lingua returns the body alone too: without it,
//                importRequest also returns the standard request and its options.
//                Twice: Node's module (import-node.js: agent_input_import_node_bg.wasm, built for
//                speed) and the browsers' (import.js: agent_input_import_bg.wasm, built for size,
//                its bindings loaded a second time under another URL and given the wasm bytes, as
//                tests/node/package.mjs does).
//   Lingua       transform_request(requestText, target) of @braintrust/lingua-wasm, the
//                wasm-bindgen module of Lingua's `lingua` crate (the function
//                `processing::transform::transform_request` natively): detect the source
//                format, read it into Lingua's universal request, write the target and hand the
//                body back as a JavaScript object.
//
// All are given the request as JSON text built before timing, and all return an object parsed
// by the engine's JSON.parse from the body text their module wrote. Before timing, the bodies are
// checked to carry the same conversation: the same turns (Anthropic's `messages`, Gemini's
// `contents`, consecutive messages of one role counted once), every text and every base64 payload
// of the request the same number of times, and the same media types; the two modules of ours
// must give equal bodies. The sides take turns request by request, each call timed alone (as
// bench/npm/bench.mjs; docs/decisions/npm.md, "The benchmark measures what a caller sees").
// Columns: the median time of a workload run (p10, the tenth percentile, beside it), and two
// ratios of medians: Lingua's time over Node's module's (above 1, ours is faster) and the
// browsers' module's time over Node's module's (how much slower the browsers' module is).
//
// Run: bash bench/lingua/run (builds the package, installs Lingua's from npm, runs this), or
//      bash scripts/build-npm && node bench/lingua/bench.mjs [--quick] [--target ID ...] [--workload NAME ...]

import lingua from '@braintrust/lingua-wasm';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WORKLOADS } from './workloads.mjs';
import { quantile, samplesInTurns } from '../turns.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const packageDir = process.env.AGENT_INPUT_PACKAGE ?? join(repo, 'target', 'npm', 'agent-input');
const { importRequest } = await import(pathToFileURL(join(packageDir, 'import-node.js')).href);
// The browsers' module: the bindings again under another URL, a second instance, given the bytes
// import.js would fetch.
const sizeGlue = await import(`${pathToFileURL(join(packageDir, 'agent_input_import.js')).href}?size`);
sizeGlue.initSync({ module: readFileSync(join(packageDir, 'agent_input_import_bg.wasm')) });
const MODULES = { node: importRequest, size: sizeGlue.importRequest };
const ourVersion = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
const linguaVersion = JSON.parse(readFileSync(join(here, 'node_modules', '@braintrust', 'lingua-wasm', 'package.json'), 'utf8')).version;
const quick = process.argv.includes('--quick');

// Our provider id, Lingua's format name, and where the body keeps its messages. Bedrock Converse
// is not among them: @braintrust/lingua-wasm is built without Lingua's `bedrock` feature, and
// its transform_request answers "Unsupported target format: Converse".
const TARGETS = [
  { id: 'anthropic-messages', lingua: 'anthropic', messages: (body) => body.messages },
  { id: 'gemini', lingua: 'google', messages: (body) => body.contents },
];

function ours(target, text, module = 'node') {
  const result = MODULES[module]('openai-chat', text, { to: target.id, only: 'body' });
  if (!result.ok) throw new Error(`agent-input: ${JSON.stringify(result.errors)}`);
  return result.body;
}

function theirs(target, text) {
  const result = lingua.transform_request(text, target.lingua);
  if (!result.transformed) throw new Error(`Lingua did not transform: ${JSON.stringify(result).slice(0, 200)}`);
  return result.data;
}

/** How many times `needle` occurs in `haystack`. */
function count(haystack, needle) {
  let n = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Every text and base64 payload of an OpenAI Chat request. */
function contents(request) {
  const pieces = [];
  for (const message of request.messages) {
    if (typeof message.content === 'string') pieces.push(message.content);
    else {
      for (const part of message.content) {
        if (part.type === 'text') pieces.push(part.text);
        else if (part.type === 'image_url') pieces.push(part.image_url.url.split(',')[1]);
        else pieces.push(part.file.file_data.split(',')[1]);
      }
    }
  }
  return pieces;
}

/**
 * The turns of a body's messages: runs of one role. Ours joins consecutive user messages into
 * one (the conversation's last two, a tool result and the next user turn), Lingua sends them
 * apart; the provider reads both as one turn.
 */
function turns(messages) {
  return messages.filter((m, i) => i === 0 || m.role !== messages[i - 1].role).length;
}

/** Both sides must carry the same conversation, or the comparison means nothing. */
function sameContent(target, request, name) {
  const text = JSON.stringify(request);
  const [a, b] = [ours(target, text), theirs(target, text)];
  const fail = (what) => {
    throw new Error(`${name} → ${target.id}: ${what}`);
  };
  if (JSON.stringify(ours(target, text, 'size')) !== JSON.stringify(a)) fail("the browsers' module's body is not Node's");
  const [ma, mb] = [turns(target.messages(a)), turns(target.messages(b))];
  if (ma !== mb) fail(`${ma} turns in ours, ${mb} in Lingua's`);
  const [ta, tb] = [JSON.stringify(a), JSON.stringify(b)];
  for (const piece of new Set(contents(request))) {
    const needle = JSON.stringify(piece).slice(1, -1);
    const [x, y] = [count(ta, needle), count(tb, needle)];
    if (x === 0 || x !== y) fail(`${JSON.stringify(needle.slice(0, 40))}… appears ${x} times in ours, ${y} in Lingua's`);
  }
  for (const type of ['"image/png"', '"application/pdf"']) {
    const [x, y] = [count(ta, type), count(tb, type)];
    if (x !== y) fail(`${type} appears ${x} times in ours, ${y} in Lingua's`);
  }
}

const given = (flag) => process.argv.flatMap((arg, i, all) => (all[i - 1] === flag ? [arg] : []));
const chosenTargets = given('--target');
const targets = chosenTargets.length ? TARGETS.filter((t) => chosenTargets.includes(t.id)) : TARGETS;
const chosenWorkloads = given('--workload');
const workloads = chosenWorkloads.length ? WORKLOADS.filter(([name]) => chosenWorkloads.includes(name)) : WORKLOADS;

console.log(
  `agent-input ${ourVersion} importRequest (only: 'body') vs @braintrust/lingua-wasm ${linguaVersion} transform_request (WebAssembly), Node ${process.version}`,
);
console.log(
  "OpenAI Chat request text → target body object; median wall time per workload run (p10); Lingua / Node = Lingua's median over our Node module's, browsers / Node = our browsers' module's over Node's\n",
);
const header = ['workload', 'target', 'input', 'Node', 'browsers', 'Lingua', 'Lingua / Node', 'browsers / Node'];
const rows = [];
const ms = (t) => (t < 10 ? t.toFixed(2) : t < 100 ? t.toFixed(1) : t.toFixed(0));
const cell = (sorted) => `${ms(quantile(sorted, 0.5))} (${ms(quantile(sorted, 0.1))}) ms`;
const ratio = (x, y) => `${(quantile(x, 0.5) / quantile(y, 0.5)).toFixed(2)}x (${(quantile(x, 0.1) / quantile(y, 0.1)).toFixed(2)}x)`;
for (const [name, build] of workloads) {
  const requests = build();
  const texts = requests.map((r) => JSON.stringify(r));
  const bytes = texts.reduce((sum, t) => sum + t.length, 0);
  for (const target of targets) {
    sameContent(target, requests[0], name);
    sameContent(target, requests[requests.length - 1], name);
    const budget = quick ? 300 : name === 'small_text_x20000' ? 6000 : 3000;
    const [node, size, lingua] = samplesInTurns(
      [(i) => ours(target, texts[i]), (i) => ours(target, texts[i], 'size'), (i) => theirs(target, texts[i])],
      texts.length,
      budget,
    );
    const row = [name, target.id, `${(bytes / 1e6).toFixed(2)} MB`, cell(node), cell(size), cell(lingua), ratio(lingua, node), ratio(size, node)];
    rows.push(row);
    console.error(row.join('  '));
  }
}
const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
const line = (cells) => `| ${cells.map((c, k) => (k < 2 ? c.padEnd(widths[k]) : c.padStart(widths[k]))).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w, k) => (k < 2 ? `-${'-'.repeat(w)}-` : `-${'-'.repeat(w)}:`)).join('|')}|`);
for (const row of rows) console.log(line(row));
