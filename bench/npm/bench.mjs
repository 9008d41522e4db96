// The npm package beside the Vercel AI SDK's Bedrock provider, on the four workloads of the core's
// benchmark (crates/agent-input/benches/pipeline.rs), in one run.
//
//   agent-input  convertJson(requestText, { provider: 'bedrock-converse', tools }): parse,
//                validate, convert and write the Converse body as JSON text, in WebAssembly.
//                (`convert`, from JavaScript values to a body object, is shown beside it.)
//   AI SDK       generateText({ model: bedrock(...), messages, tools }) from `ai` with
//                `@ai-sdk/amazon-bedrock`: the SDK standardizes the prompt, the provider builds
//                the Converse body and hands it to `fetch`. A capturing `fetch` keeps the body and
//                answers with a minimal Converse response, so nothing leaves the machine. API-key
//                authentication is used, so no SigV4 hashing of the body is counted.
//
// The AI SDK is given its own message objects, built before timing; agent-input is given the
// request as JSON text (and, for `convert`, as objects), also built before timing. Both produce
// the same Bedrock content for every workload (checked before timing).
//
// Run: bash scripts/build-npm && node bench/npm/bench.mjs [--quick]

import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { generateText, jsonSchema, tool } from 'ai';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packageDir = process.env.AGENT_INPUT_PACKAGE ?? join(repo, 'target', 'npm', 'agent-input');
const { convert, convertJson, version } = await import(pathToFileURL(join(packageDir, 'node.js')).href);
const quick = process.argv.includes('--quick');

// ---------------------------------------------------------------- workloads (as pipeline.rs)

/** `len` deterministic pseudo-random bytes after `signature` (xorshift64, as pipeline.rs), base64. */
function payload(signature, len, seed) {
  const bytes = new Uint8Array(len + 8);
  bytes.set(signature);
  const view = new DataView(bytes.buffer);
  let x = BigInt(seed) | 1n;
  const mask = (1n << 64n) - 1n;
  for (let at = signature.length; at < len; at += 8) {
    x ^= (x << 13n) & mask;
    x ^= x >> 7n;
    x ^= (x << 17n) & mask;
    view.setBigUint64(at, x, true);
  }
  return Buffer.from(bytes.subarray(0, len)).toString('base64');
}
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PDF = [...Buffer.from('%PDF-1.7\n')];

function smallText() {
  return Array.from({ length: 20_000 }, (_, i) => ({
    input: `Question number ${i}: what is the capital of France?`,
    parameters: { verbose: true },
  }));
}

function bigImage() {
  return [
    {
      input: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', source: { type: 'base64', format: 'png', data: payload(PNG, 3_500_000, 7) } },
      ],
    },
  ];
}

function longConversation() {
  const messages = [];
  for (let i = 0; i < 1000; i++) {
    messages.push({
      role: 'user',
      content: [{ type: 'text', text: `Turn ${i}: please summarise the previous answer in two sentences and add one new fact.` }],
    });
    messages.push({
      role: 'assistant',
      content: [{ type: 'text', text: `Answer ${i}: here is a summary of what we discussed, with one more fact about the topic at hand.` }],
    });
  }
  messages.pop();
  messages.push({ role: 'user', content: [{ type: 'text', text: 'And finally?' }] });
  return [{ input: messages }];
}

function multimodal() {
  const messages = [];
  let seed = 1;
  for (let turn = 0; turn < 10; turn++) {
    const content = [{ type: 'text', text: `Turn ${turn}: compare these.` }];
    for (let k = 0; k < 2; k++) {
      seed += 1;
      content.push({ type: 'image', source: { type: 'base64', format: 'png', data: payload(PNG, 150_000, seed) } });
    }
    if (turn % 5 === 0) {
      seed += 1;
      content.push({
        type: 'document',
        name: `report ${turn}.pdf`,
        source: { type: 'base64', format: 'pdf', data: payload(PDF, 500_000, seed) },
      });
    }
    messages.push({ role: 'user', content });
    if (turn < 9) {
      messages.push({
        role: 'assistant',
        content: [{ type: 'text', text: 'Noted.' }],
        toolCalls: [{ id: `call-${turn}`, type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
      });
      messages.push({ role: 'tool', toolCallId: `call-${turn}`, content: [{ type: 'text', text: 'found' }] });
    }
  }
  return [{ input: messages }];
}

// ------------------------------------------------- the same requests as AI SDK messages

const MEDIA_TYPES = { png: 'image/png', pdf: 'application/pdf' };

/** A standard input (messages or blocks) as AI SDK ModelMessages. */
function toModelMessages(input) {
  const part = (block) => {
    if (block.type === 'text') return { type: 'text', text: block.text };
    if (block.type === 'image') {
      return { type: 'image', image: block.source.data, mediaType: MEDIA_TYPES[block.source.format] };
    }
    return { type: 'file', data: block.source.data, mediaType: MEDIA_TYPES[block.source.format], filename: block.name };
  };
  if (typeof input === 'string') return [{ role: 'user', content: [{ type: 'text', text: input }] }];
  if (!('role' in input[0])) return [{ role: 'user', content: input.map(part) }];
  return input.map((m) => {
    if (m.role === 'tool') {
      return {
        role: 'tool',
        content: [{
          type: 'tool-result',
          toolCallId: m.toolCallId,
          toolName: 'lookup',
          output: { type: 'text', value: m.content.map((b) => b.text).join('') },
        }],
      };
    }
    const content = m.content.map(part);
    for (const call of m.toolCalls ?? []) {
      content.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: call.function.name,
        input: JSON.parse(call.function.arguments),
      });
    }
    return { role: m.role, content };
  });
}

// ------------------------------------------------------------------------------- runners

const TOOLS = [{ name: 'lookup', description: 'Look something up', inputSchema: { type: 'object' } }];
const OPTIONS = { provider: 'bedrock-converse', tools: TOOLS };
const sdkTools = { lookup: tool({ description: 'Look something up', inputSchema: jsonSchema({ type: 'object' }) }) };

let captured;
const cannedResponse = JSON.stringify({
  output: { message: { role: 'assistant', content: [{ text: 'ok' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
});
const bedrock = createAmazonBedrock({
  region: 'us-east-1',
  apiKey: 'benchmark-key',
  fetch: async (_url, init) => {
    captured = init.body;
    return new Response(cannedResponse, { status: 200, headers: { 'content-type': 'application/json' } });
  },
});
const model = bedrock('anthropic.claude-3-5-sonnet-20241022-v2:0');

async function aiSdk(messageLists) {
  let bytes = 0;
  for (const messages of messageLists) {
    await generateText({ model, messages, tools: sdkTools, maxRetries: 0 });
    bytes += captured.length;
  }
  return bytes;
}

function ours(texts) {
  let bytes = 0;
  for (const text of texts) {
    const result = convertJson(text, OPTIONS);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    bytes += result.body.length;
  }
  return bytes;
}

function oursValues(requests) {
  let n = 0;
  for (const request of requests) {
    const result = convert(request, OPTIONS);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    n += result.body.messages.length;
  }
  return n;
}

/** Median wall time of `fn` in ms, over enough runs to fill about `budgetMs`. */
async function time(fn, budgetMs) {
  await fn(); // warm up
  const samples = [];
  const start = performance.now();
  while (samples.length < 3 || (performance.now() - start < budgetMs && samples.length < 50)) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

/** The Bedrock content both sides produce must be the same, or the comparison means nothing. */
async function sameContent(request) {
  const ourBody = JSON.parse(convertJson(JSON.stringify(request), OPTIONS).body);
  await generateText({ model, messages: toModelMessages(request.input), tools: sdkTools, maxRetries: 0 });
  const theirs = JSON.parse(captured);
  const strip = (messages) =>
    JSON.stringify(messages, (key, value) => (key === 'cachePoint' ? undefined : value));
  if (strip(ourBody.messages) !== strip(theirs.messages)) {
    const a = strip(ourBody.messages);
    const b = strip(theirs.messages);
    let i = 0;
    while (a[i] === b[i]) i++;
    throw new Error(`different Bedrock messages at character ${i}:\n  ours:   …${a.slice(Math.max(0, i - 80), i + 80)}\n  AI SDK: …${b.slice(Math.max(0, i - 80), i + 80)}`);
  }
}

const WORKLOADS = [
  ['small_text_x20000', smallText],
  ['image_3_5mb', bigImage],
  ['conversation_2000', longConversation],
  ['multimodal_10_turns', multimodal],
];

console.log(`agent-input ${version} (WebAssembly) vs ai 6 + @ai-sdk/amazon-bedrock 4, Node ${process.version}`);
console.log('median wall time per workload run; ratio = AI SDK time / agent-input convertJson time\n');
const header = ['workload', 'input', 'convertJson', 'convert', 'AI SDK', 'ratio'];
const rows = [];
for (const [name, make] of WORKLOADS) {
  const requests = make();
  const texts = requests.map((r) => JSON.stringify(r));
  const messageLists = requests.map((r) => toModelMessages(r.input));
  await sameContent(requests[0]);
  const budget = quick ? 300 : 3000;
  const tJson = await time(() => ours(texts), budget);
  const tValues = await time(() => oursValues(requests), budget);
  const tSdk = await time(() => aiSdk(messageLists), budget);
  const inputBytes = texts.reduce((n, t) => n + t.length, 0);
  rows.push([
    name,
    `${(inputBytes / 1e6).toFixed(2)} MB`,
    `${tJson.toFixed(2)} ms`,
    `${tValues.toFixed(2)} ms`,
    `${tSdk.toFixed(2)} ms`,
    `${(tSdk / tJson).toFixed(1)}x`,
  ]);
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
