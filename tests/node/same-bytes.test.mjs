// The same bytes from every build: the core built natively (examples/same_bytes.rs, the
// package's operations on text without WebAssembly), Node's module (agent_input_node_bg.wasm,
// built for speed: its own JSON parser and Converse writer) and the browsers' module
// (agent_input_bg.wasm, built for size) must answer every call alike: the same reports, errors
// and warnings, and bodies equal byte for byte. The calls: every conformance fixture's subject
// (validated, and converted for every provider with the fixture's options and without), and
// every kept fuzz corpus input (fuzz/corpus/<target>/ and fuzz/corpus/<target>.min.tar.gz) as
// request text, validated and converted for every provider, with default and small limits.
//
// The native side is one process for all the calls (built here by cargo if it is not current),
// with the base module's features. The core's `schema` feature, which the CLI and the schema
// module have, turns on serde_json's `float_roundtrip`: a number with more digits than an f64
// holds can then be read one unit in the last place apart (55555555555.55556 natively where the
// base modules say 55555555555.55555, in the message of a diagnostic quoting it). The base modules
// leave it out for their size (8.9 KB gzip).

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { pkg, sizePkg } from './package.mjs';
import { convertOptions, limitsOption, loadAll, subject } from './support.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PROVIDERS = ['bedrock-converse', 'openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];
/** The small limits the parse_validate fuzz target also runs with. */
const SMALL = { maxDepth: 6, maxMessages: 3, maxBlocks: 3, maxBodyBytes: 4096 };

/** `{ name, text, input, calls: [[op, options]] }`: what each build is asked, text by text. */
function fixtureInputs() {
  const inputs = [];
  for (const { file, name, case: c, exactRequest } of loadAll()) {
    const s = subject(c);
    const limits = limitsOption(c.limits);
    const validateOptions = limits ? { limits } : null;
    const converts = PROVIDERS.map((provider) => (limits ? { provider, limits } : { provider }));
    for (const [provider, entry] of Object.entries(c.expect.convert ?? {})) {
      converts.push(convertOptions(provider, entry, c.limits, { camel: false }));
      converts.push(convertOptions(provider, entry, c.limits, { camel: true }));
    }
    const calls = (validate, convert) => [[validate, validateOptions], ...converts.map((o) => [convert, o])];
    const label = `${file}/${name}`;
    if (s.kind === 'bare') {
      inputs.push({ name: label, text: JSON.stringify(s.value), input: true, calls: calls('validateInput', 'convertInput') });
    } else if (s.kind === 'raw') {
      inputs.push({ name: label, text: s.text, input: false, calls: calls('validate', 'convert') });
    } else {
      const text = JSON.stringify(s.value);
      inputs.push({ name: label, text, input: false, calls: calls('validate', 'convert') });
      // The request as the file writes it (`300.0`, `1e16`), when it has no generated payload.
      if (exactRequest !== text && !exactRequest.includes('{{base64')) {
        inputs.push({ name: `${label} (as written)`, text: exactRequest, input: false, calls: calls('validate', 'convert') });
      }
    }
  }
  return inputs;
}

/** Every kept corpus input of every fuzz target, as text (invalid UTF-8 becomes U+FFFD). */
function fuzzInputs() {
  const corpus = join(repo, 'fuzz', 'corpus');
  const unpacked = mkdtempSync(join(tmpdir(), 'agent-input-corpus-'));
  const decoder = new TextDecoder();
  const inputs = [];
  try {
    const targets = readdirSync(corpus).filter((f) => f.endsWith('.min.tar.gz')).map((f) => f.replace(/\.min\.tar\.gz$/, ''));
    assert.ok(targets.length >= 5, `fuzz targets: ${targets.join(', ')}`);
    for (const target of targets) {
      const kept = join(unpacked, target);
      execFileSync('mkdir', ['-p', kept]);
      execFileSync('tar', ['-xzf', join(corpus, `${target}.min.tar.gz`), '-C', kept]);
      const dirs = [join(corpus, target), ...readdirSync(kept).map((d) => join(kept, d))];
      for (const dir of dirs) {
        for (const file of readdirSync(dir)) {
          inputs.push({ name: `fuzz ${target} ${file}`, text: decoder.decode(readFileSync(join(dir, file))) });
        }
      }
    }
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
  const calls = [
    ['validate', null],
    ['validate', { limits: SMALL, allowPrefill: true }],
    ...PROVIDERS.map((provider) => ['convert', { provider }]),
    ...PROVIDERS.map((provider) => ['convert', { provider, limits: SMALL, allowPrefill: true }]),
  ];
  // The seeds are shared between targets: each text once.
  const seen = new Set();
  return inputs
    .filter(({ text }) => !seen.has(text) && seen.add(text))
    .map((input) => ({ ...input, input: false, calls }));
}

/** A module's answer to a call, as JSON text (a body as the string it is, or as a value). */
function wasmAnswer(p, text, op, options) {
  try {
    const opts = options ?? undefined;
    switch (op) {
      case 'validate':
        return JSON.stringify(p.validateJson(text, opts));
      case 'validateInput':
        return JSON.stringify(p.validateInput(JSON.parse(text), opts));
      case 'convert':
        return JSON.stringify(p.convertJson(text, opts));
      case 'convertInput':
        return JSON.stringify(p.convertInput(JSON.parse(text), opts));
    }
  } catch (error) {
    return `threw ${error}`;
  }
  throw new Error(`unknown operation ${op}`);
}

/** The native answers to every call, in order, as `wasmAnswer` writes them. */
function nativeAnswers(inputs) {
  // The base module's features (see above).
  execFileSync('cargo', ['build', '-p', 'agent-input-wasm', '--example', 'same_bytes', '--locked', '-q'], {
    cwd: repo,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const lines = [];
  for (const { text, calls } of inputs) {
    // As the modules read a string (encodeInto): an unpaired surrogate is U+FFFD.
    lines.push(JSON.stringify(['text', text.toWellFormed()]));
    for (const [op, options] of calls) lines.push(JSON.stringify([op, options === null ? null : JSON.stringify(options)]));
  }
  const run = spawnSync(join(repo, 'target', 'debug', 'examples', 'same_bytes'), {
    input: `${lines.join('\n')}\n`,
    maxBuffer: 2 ** 31,
  });
  assert.equal(run.status, 0, `same_bytes failed: ${run.stderr}`);
  // Read a line at a time: all of it (large images in many bodies) is over V8's longest string.
  const answers = [];
  for (let start = 0; start < run.stdout.length; ) {
    let end = run.stdout.indexOf(10, start);
    if (end === -1) end = run.stdout.length;
    if (end > start) answers.push(JSON.parse(run.stdout.toString('utf8', start, end)));
    start = end + 1;
  }
  const out = [];
  let at = 0;
  for (const { input, calls } of inputs) {
    for (const [op] of calls) {
      const answer = answers[at++];
      if (op.startsWith('validate')) {
        out.push(JSON.stringify(JSON.parse(answer[0])));
      } else {
        const [ok, report, body] = answer;
        const result = JSON.parse(report);
        if (ok) result.body = input ? JSON.parse(body) : body;
        out.push(JSON.stringify(result));
      }
    }
  }
  assert.equal(at, answers.length, 'one answer a call');
  return out;
}

/** Where two answers first differ, with some context. */
function difference(a, b) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const around = (s) => JSON.stringify(s.slice(Math.max(0, i - 60), i + 60));
  return `at character ${i} of ${a.length} and ${b.length}: ${around(a)} against ${around(b)}`;
}

test('native, Node and browser builds give the same bytes for every fixture and fuzz input', () => {
  const inputs = [...fixtureInputs(), ...fuzzInputs()];
  const calls = inputs.reduce((n, input) => n + input.calls.length, 0);
  assert.ok(inputs.length >= 5000 && calls >= 50000, `only ${inputs.length} inputs, ${calls} calls`);
  const native = nativeAnswers(inputs);
  const problems = [];
  let at = 0;
  for (const { name, text, calls } of inputs) {
    for (const [op, options] of calls) {
      const want = native[at++];
      for (const [build, p] of [['Node module', pkg], ['browser module', sizePkg]]) {
        const got = wasmAnswer(p, text, op, options);
        if (got !== want) {
          problems.push(`${name}: ${op} ${JSON.stringify(options)}: ${build} differs from native ${difference(got, want)}`);
        }
      }
    }
  }
  assert.ok(problems.length === 0, `${problems.length} differences:\n${problems.slice(0, 40).join('\n')}`);
});
