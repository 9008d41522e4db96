// The limit cases through the packed npm package under Node: 100,000-deep nesting, a 200 MB
// body, 100,000 messages, a 60 MB base64 string and 10,000 documents each end in their error
// code, quickly and with bounded memory. Each case runs in a child Node process of its own, so
// its peak resident memory (process.resourceUsage().maxRSS) is its own.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { projectDir } from './package.mjs';

const MIB = 1024 * 1024;
const entry = pathToFileURL(join(projectDir, 'entry.mjs')).href;

/**
 * Runs `body` (the source of an async function of `pkg` returning `{ code, inputBytes }`) in a
 * child Node process and returns what it measured.
 */
function measure(body) {
  const script = `
    const pkg = await import(${JSON.stringify(entry)});
    const baseline = process.resourceUsage().maxRSS * 1024;
    const started = performance.now();
    const { code, inputBytes } = await (${body})(pkg);
    const ms = performance.now() - started;
    const peak = process.resourceUsage().maxRSS * 1024;
    process.stdout.write(JSON.stringify({ code, inputBytes, ms, peak, baseline }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    maxBuffer: MIB,
    timeout: 60_000,
  });
  return JSON.parse(out);
}

/**
 * The peak may exceed what the package had loaded (`baseline`) by `copies` times the input
 * (the JavaScript string itself, and its UTF-8 copy in wasm memory) plus `slackMiB`.
 */
function assertBounded(name, m, { code, copies, slackMiB, seconds }) {
  console.log(
    `${name}: ${m.code}, input ${(m.inputBytes / MIB).toFixed(1)} MiB, peak RSS ${(m.peak / MIB).toFixed(1)} MiB ` +
      `(baseline ${(m.baseline / MIB).toFixed(1)} MiB), ${m.ms.toFixed(0)} ms`,
  );
  assert.equal(m.code, code, name);
  const bound = m.baseline + copies * m.inputBytes + slackMiB * MIB;
  assert.ok(m.peak <= bound, `${name}: peak ${m.peak} over ${bound}`);
  assert.ok(m.ms <= seconds * 1000, `${name}: took ${m.ms} ms`);
}

describe('limits under Node', () => {
  test('a 200 MB body is too_large', () => {
    const m = measure(`(pkg) => {
      const text = '{"input": "' + 'x'.repeat(200 * 1024 * 1024) + '"}';
      return { code: pkg.validateJson(text).errors[0].code, inputBytes: text.length };
    }`);
    assertBounded('200 MB body', m, { code: 'too_large', copies: 2, slackMiB: 64, seconds: 20 });
  });

  test('an over-limit body is refused before it is copied into wasm memory', () => {
    // The generated module itself, instantiated here, so its memory can be read.
    const glue = pathToFileURL(join(projectDir, 'node_modules', 'agent-input', 'agent_input.js')).href;
    const script = `
      const { readFileSync } = await import('node:fs');
      const pkg = await import(${JSON.stringify(glue)});
      const wasm = pkg.initSync({ module: readFileSync(new URL('./agent_input_bg.wasm', ${JSON.stringify(glue)})) });
      pkg.validateJson('{"input": "warm up"}');
      const text = '{"input": "' + 'x'.repeat(200 * 1024 * 1024) + '"}';
      text.charCodeAt(text.length >> 1); // flattened before measuring, as text read from a file is
      const memory = wasm.memory.buffer.byteLength;
      const peak = process.resourceUsage().maxRSS * 1024;
      const started = performance.now();
      const validated = pkg.validateJson(text).errors[0];
      const converted = pkg.convertJson(text, { provider: 'bedrock-converse' }).errors[0];
      const limited = pkg.validateJson(text, { limits: { maxBodyBytes: 1000 } }).errors[0];
      const ms = performance.now() - started;
      process.stdout.write(JSON.stringify({
        validated, converted, limited, ms, inputBytes: text.length,
        memoryGrowth: wasm.memory.buffer.byteLength - memory,
        peakGrowth: process.resourceUsage().maxRSS * 1024 - peak,
      }));
    `;
    const m = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: MIB, timeout: 60_000 }),
    );
    console.log(
      `200 MB body refused: wasm memory +${(m.memoryGrowth / MIB).toFixed(2)} MiB, ` +
        `peak RSS +${(m.peakGrowth / MIB).toFixed(1)} MiB, ${m.ms.toFixed(0)} ms for three calls`,
    );
    for (const [error, limit] of [[m.validated, 64 * MIB], [m.converted, 64 * MIB], [m.limited, 1000]]) {
      assert.equal(error.code, 'too_large');
      assert.equal(error.limit, limit);
      assert.equal(error.actual, m.inputBytes);
    }
    assert.ok(m.memoryGrowth <= MIB, `wasm memory grew by ${m.memoryGrowth} B`);
    assert.ok(m.peakGrowth <= m.inputBytes / 8, `peak RSS grew by ${m.peakGrowth} B`);
    assert.ok(m.ms <= 5000, `took ${m.ms} ms`);
  });

  test('100,000-deep nesting is too_deep', () => {
    const m = measure(`(pkg) => {
      const text = '{"input": ' + '['.repeat(100000) + '"x"' + ']'.repeat(100000) + '}';
      return { code: pkg.validateJson(text).errors[0].code, inputBytes: text.length };
    }`);
    assertBounded('100,000-deep nesting', m, { code: 'too_deep', copies: 2, slackMiB: 32, seconds: 10 });
  });

  test('100,000 messages are too_many, as values and as text', () => {
    const m = measure(`(pkg) => {
      const input = Array.from({ length: 100000 }, () => ({ role: 'user', content: 'hi' }));
      const viaValue = pkg.validate({ input }).errors[0].code;
      const text = JSON.stringify({ input });
      const viaText = pkg.validateJson(text).errors[0].code;
      return { code: viaValue === viaText ? viaText : viaValue + '/' + viaText, inputBytes: text.length };
    }`);
    // The array of 100,000 objects is itself many times its JSON size.
    assertBounded('100,000 messages', m, { code: 'too_many', copies: 12, slackMiB: 64, seconds: 20 });
  });

  test('a 60 MB base64 image is over the Bedrock limit', () => {
    const m = measure(`(pkg) => {
      const text = '{"input": [{"type": "text", "text": "Look"}, {"type": "image", "source": ' +
        '{"type": "base64", "format": "png", "data": "' + 'A'.repeat(60 * 1024 * 1024) + '"}}]}';
      const result = pkg.convertJson(text, { provider: 'bedrock-converse' });
      return { code: result.errors.map((e) => e.code).join(','), inputBytes: text.length };
    }`);
    assertBounded('60 MB base64 image', m, { code: 'provider_limit', copies: 2, slackMiB: 64, seconds: 20 });
  });

  test('10,000 documents are too_many', () => {
    const m = measure(`(pkg) => {
      const doc = { type: 'document', source: { type: 'base64', format: 'txt', data: 'aGk=' } };
      const input = [{ type: 'text', text: 'Read' }, ...Array.from({ length: 10000 }, () => doc)];
      const result = pkg.convert({ input }, { provider: 'bedrock-converse' });
      return { code: result.errors.map((e) => e.code).join(','), inputBytes: JSON.stringify({ input }).length };
    }`);
    assertBounded('10,000 documents', m, { code: 'too_many', copies: 12, slackMiB: 64, seconds: 10 });
  });
});

// The Node module gives back what a call allocates: calls of every kind, repeated, leave wasm
// memory where the first ones took it. A block never freed, or settings kept without bound,
// would grow it a little with every call.
test("the Node module's memory stops growing over repeated calls", async () => {
  const installed = join(projectDir, 'node_modules', 'agent-input');
  const glue = await import(`${pathToFileURL(join(installed, 'agent_input.js')).href}?memory`);
  const { readFileSync } = await import('node:fs');
  const { memory } = glue.initSync({ module: readFileSync(join(installed, 'agent_input_node_bg.wasm')) });
  const messages = [];
  for (let i = 0; i < 2000; i++) {
    messages.push({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text: `Turn ${i}: é 🙂 text` }] });
  }
  messages.push({ role: 'user', content: [{ type: 'text', text: 'And?' }] });
  const conversation = JSON.stringify({ input: messages });
  const invalid = JSON.stringify({ input: messages.map((m, i) => (i % 7 ? m : { ...m, role: '' })) });
  const round = (n) => {
    for (let i = 0; i < n; i++) {
      // Options that change every call replace the cached settings each time.
      glue.convertJson(conversation, { provider: ['bedrock-converse', 'openai-chat', 'gemini'][i % 3], system: `s${i}` });
      glue.takeSplices();
      glue.validateJson(invalid);
      glue.convert(JSON.parse('{"input":[{"type":"text","text":"hi"}]}'), { provider: 'anthropic-messages' });
    }
  };
  round(30);
  const settled = memory.buffer.byteLength;
  round(300);
  assert.equal(memory.buffer.byteLength, settled, `grew from ${settled} to ${memory.buffer.byteLength} bytes`);
});
