// The npm package beside the Vercel AI SDK's providers (Bedrock, OpenAI Chat, OpenAI Responses,
// Anthropic, Google), on the four workloads of the core's benchmark
// (crates/agent-input/benches/pipeline.rs), in one run.
//
//   agent-input    convertJson(requestText, { provider, tools }), the options an object made for
//                  each call: parse, validate, convert and write the provider's body as JSON
//                  text, in WebAssembly. (`convert`, from JavaScript values to a body object, is
//                  shown beside it.)
//   request build  the provider package's own request build alone: `model.doGenerate(call)` with
//                  the call `generateText` makes (captured once, before timing), its `fetch`
//                  keeping the body text and throwing, so no response is read. This is the
//                  fastest path the AI SDK has from a prompt to the bytes it sends.
//   generateText   (with --generate-text) generateText({ model, messages, tools }) from `ai`:
//                  the SDK also standardizes the prompt and reads a minimal response in the
//                  provider's format (minutes for the 20,000 small texts).
// API keys are used, so no SigV4 hashing of the body is counted.
//
// The AI SDK is given its own message objects, built before timing; agent-input is given the
// request as JSON text (and, for `convert`, as objects), also built before timing. Before timing,
// both sides' bodies are checked to carry the same content: for Bedrock the same `messages`
// exactly; for the others every text and every base64 payload of the request, the same number of
// times (the two serialize details such as `max_tokens` differently, so equality would test
// those rather than the work). The sides take turns request by request, each call timed alone
// (timeInTurns). The ratio is the request build's time over convertJson's.
//
// The `_real` workloads are the small texts and the conversation with text as people write it
// (quotes, line breaks, non-ASCII letters, an emoji), beside the plain ASCII ones.
//
// `--floor` (a package built with the feature `boundary-bench`) adds, on the conversations, the
// least any converter of the request text does in this module: the text copied in as convertJson
// copies it and read by serde_json into structs made for exactly that shape, nothing validated,
// no body written (crates/agent-input-wasm/src/bench.rs). Its ratio is the highest a converter
// starting from the text could reach against the request build. Beside it, less still: the text
// copied in and its JSON syntax checked, nothing kept (`syntax alone`).
//
// Run: bash scripts/build-npm && node bench/npm/bench.mjs [--quick] [--generate-text] [--provider ID ...]
//      [--workload NAME ...]
//      AGENT_INPUT_WASM_FEATURES=boundary-bench AGENT_INPUT_NPM_OUT=target/npm/agent-input-bench bash scripts/build-npm &&
//      AGENT_INPUT_PACKAGE=target/npm/agent-input-bench node bench/npm/bench.mjs --floor --workload conversation_2000

import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, tool } from 'ai';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { PDF, PNG, payload } from '../payload.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packageDir = process.env.AGENT_INPUT_PACKAGE ?? join(repo, 'target', 'npm', 'agent-input');
const { convert, convertJson, version } = await import(pathToFileURL(join(packageDir, 'node.js')).href);
const quick = process.argv.includes('--quick');
const withGenerateText = process.argv.includes('--generate-text');
// The same module instance node.js set up: its extra exports, when built with `boundary-bench`.
const { benchReadSyntax, benchReadTyped } = await import(pathToFileURL(join(packageDir, 'agent_input.js')).href);
const withFloor = process.argv.includes('--floor');
if (withFloor && !benchReadTyped) throw new Error(`${packageDir} was not built with the feature boundary-bench`);

// ---------------------------------------------------------------- workloads (as pipeline.rs)

function smallText() {
  return Array.from({ length: 20_000 }, (_, i) => ({
    input: `Question number ${i}: what is the capital of France?`,
    parameters: { verbose: true },
  }));
}

// Text as people write it: quotes, apostrophes, line breaks, a tab, a backslash, accented and
// non-Latin letters and an emoji; every string needs escaping in JSON, and most are not ASCII.
// The `_real` rows run these beside the plain ASCII rows above and below.
const REAL_QUESTIONS = [
  (i) => `Question ${i}: what's the capital of "France"?\nAnswer in français, s'il vous plaît — merci !`,
  (i) => `Frage ${i}: Wie heißt die Hauptstadt von Österreich?\n\tBitte kurz: „Wien“ oder nicht?`,
  (i) => `質問 ${i}：日本の首都はどこですか？\n短く答えてください 🙂`,
  (i) => `Q${i}: my path is C:\\Users\\zoë\\report.txt — why "access denied"?\nThanks!`,
];

function smallTextReal() {
  return Array.from({ length: 20_000 }, (_, i) => ({
    input: REAL_QUESTIONS[i % REAL_QUESTIONS.length](i),
    parameters: { verbose: true },
  }));
}

function longConversationReal() {
  const messages = [];
  for (let i = 0; i < 1000; i++) {
    messages.push({
      role: 'user',
      content: [{
        type: 'text',
        text: `Turn ${i}: could you summarise "the previous answer" in two sentences?\nAlso add one new fact — about Zürich, São Paulo or 東京.`,
      }],
    });
    messages.push({
      role: 'assistant',
      content: [{
        type: 'text',
        text: `Answer ${i}: here's what we discussed:\n- the "main point", in short;\n- one more fact: the café in Kraków opened in 1852 🙂`,
      }],
    });
  }
  messages.pop();
  messages.push({ role: 'user', content: [{ type: 'text', text: 'And finally — "one last" thing?\nDanke schön.' }] });
  return [{ input: messages }];
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
const sdkTools = { lookup: tool({ description: 'Look something up', inputSchema: jsonSchema({ type: 'object' }) }) };

let captured;
/** Set while timing the request build: the capturing `fetch` throws this instead of answering. */
let buildOnly = false;
const BUILT = new Error('request built');
/** A `fetch` that keeps the request body and answers with `response`, nothing leaving the machine. */
const capture = (response) => async (_url, init) => {
  captured = init.body;
  if (buildOnly) throw BUILT;
  return new Response(JSON.stringify(response), { status: 200, headers: { 'content-type': 'application/json' } });
};
const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

// Each provider: our id, the AI SDK model (its fetch answering in the provider's own format), and
// how to compare the two bodies before timing.
const PROVIDERS = [
  {
    id: 'bedrock-converse',
    label: '@ai-sdk/amazon-bedrock',
    model: createAmazonBedrock({
      region: 'us-east-1',
      apiKey: 'benchmark-key',
      fetch: capture({
        output: { message: { role: 'assistant', content: [{ text: 'ok' }] } },
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      }),
    })('anthropic.claude-3-5-sonnet-20241022-v2:0'),
    exact: true,
  },
  {
    id: 'openai-chat',
    label: '@ai-sdk/openai .chat',
    model: createOpenAI({
      apiKey: 'benchmark-key',
      fetch: capture({
        id: 'x', object: 'chat.completion', created: 0, model: 'gpt-4o',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage,
      }),
    }).chat('gpt-4o'),
  },
  {
    id: 'openai-responses',
    label: '@ai-sdk/openai .responses',
    model: createOpenAI({
      apiKey: 'benchmark-key',
      fetch: capture({
        id: 'resp_x', object: 'response', created_at: 0, status: 'completed', model: 'gpt-4o',
        output: [{ type: 'message', id: 'msg_x', role: 'assistant', status: 'completed',
          content: [{ type: 'output_text', text: 'ok', annotations: [] }] }],
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      }),
    }).responses('gpt-4o'),
  },
  {
    id: 'anthropic-messages',
    label: '@ai-sdk/anthropic',
    model: createAnthropic({
      apiKey: 'benchmark-key',
      fetch: capture({
        id: 'msg_x', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    })('claude-sonnet-4-5'),
  },
  {
    id: 'gemini',
    label: '@ai-sdk/google',
    model: createGoogleGenerativeAI({
      apiKey: 'benchmark-key',
      fetch: capture({
        candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      }),
    })('gemini-2.5-flash'),
  },
];

/** `generateText` on one message list, answered by the capturing `fetch`. */
async function aiSdk(provider, messages) {
  await generateText({ model: provider.model, messages, tools: sdkTools, maxRetries: 0 });
}

/**
 * The `doGenerate` calls `generateText` makes for each message list (prompt standardized, tools
 * prepared), captured through a model that passes them on.
 */
async function modelCalls(provider, messageLists) {
  const calls = [];
  const spy = {
    specificationVersion: provider.model.specificationVersion,
    provider: provider.model.provider,
    modelId: provider.model.modelId,
    supportedUrls: provider.model.supportedUrls,
    doGenerate: (call) => {
      calls.push(call);
      return provider.model.doGenerate(call);
    },
  };
  for (const messages of messageLists) await generateText({ model: spy, messages, tools: sdkTools, maxRetries: 0 });
  return calls;
}

/** The provider package's request build alone: `doGenerate` until its `fetch` has the body. */
async function requestBuild(provider, call) {
  captured = undefined;
  buildOnly = true;
  try {
    await provider.model.doGenerate(call);
  } catch (error) {
    if (captured === undefined) throw error;
  } finally {
    buildOnly = false;
  }
}

/**
 * One request's text through `convertJson`, with its options passed as a web app passes them:
 * an object made for the call. (The module keeps the settings read from the last eight options
 * texts, and a new object with the same options has the same text, so a caller whose options do
 * not change gets them read once either way.)
 */
function ours(provider, text) {
  const result = convertJson(text, { provider: provider.id, tools: TOOLS });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
}

/** `convert`, from the request as JavaScript values, likewise. */
function oursValues(provider, request) {
  const result = convert(request, { provider: provider.id, tools: TOOLS });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
}

/**
 * Median wall time in ms of a workload run on each side, `sides[k](i)` handling the workload's
 * request `i` (a promise is awaited inside its own time). The sides take turns request by
 * request, as a server converting its requests one at a time with either library would: each
 * call is timed alone, and every side lives with the garbage, caches and compiled code the whole
 * process leaves, not with a tight loop of its own. (Running each side in a block of its own, as
 * this benchmark did before, gave `convertJson` 20,000 small requests in a row with nothing
 * between them, and a higher ratio than a caller converting request by request sees;
 * docs/decisions/npm.md, "The benchmark measures what a caller sees".) A sample is one pass over
 * the workload's requests; the first passes run untimed (10, or a tenth of the budget), as the
 * module and the JavaScript start in baseline code. At least 5 timed passes, then more while the
 * budget (per side) lasts, at most 201.
 */
async function timeInTurns(sides, n, budgetMs) {
  const pass = async () => {
    const sums = sides.map(() => 0);
    for (let i = 0; i < n; i++) {
      for (const [k, side] of sides.entries()) {
        const start = performance.now();
        const pending = side(i);
        if (pending instanceof Promise) await pending;
        sums[k] += performance.now() - start;
      }
    }
    return sums;
  };
  const total = budgetMs * sides.length;
  let start = performance.now();
  for (let runs = 0; runs < 10 && (runs === 0 || performance.now() - start < total / 10); runs++) await pass();
  start = performance.now();
  const samples = sides.map(() => []);
  while (samples[0].length < 5 || (samples[0].length < 201 && performance.now() - start < total)) {
    for (const [k, t] of (await pass()).entries()) samples[k].push(t);
  }
  return samples.map((s) => s.sort((a, b) => a - b)[s.length >> 1]);
}

/** How many times `needle` occurs in `haystack`. */
function count(haystack, needle) {
  let n = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** Every text and base64 payload of a standard input. */
function contents(input) {
  if (typeof input === 'string') return [input];
  const blocks = 'role' in input[0] ? input.flatMap((m) => m.content) : input;
  return blocks.map((b) => (b.type === 'text' ? b.text : b.source.data));
}

/** Both sides must carry the same content, or the comparison means nothing. */
async function sameContent(provider, request) {
  const options = { provider: provider.id, tools: TOOLS };
  const ourText = convertJson(JSON.stringify(request), options).body;
  await generateText({ model: provider.model, messages: toModelMessages(request.input), tools: sdkTools, maxRetries: 0 });
  const theirText = captured;
  if (provider.exact) {
    const strip = (messages) =>
      JSON.stringify(messages, (key, value) => (key === 'cachePoint' ? undefined : value));
    const a = strip(JSON.parse(ourText).messages);
    const b = strip(JSON.parse(theirText).messages);
    if (a !== b) {
      let i = 0;
      while (a[i] === b[i]) i++;
      throw new Error(`${provider.id}: different messages at character ${i}:\n  ours:   …${a.slice(Math.max(0, i - 80), i + 80)}\n  AI SDK: …${b.slice(Math.max(0, i - 80), i + 80)}`);
    }
    return;
  }
  for (const piece of new Set(contents(request.input))) {
    const needle = JSON.stringify(piece).slice(1, -1);
    const [a, b] = [count(ourText, needle), count(theirText, needle)];
    if (a === 0 || a !== b) {
      throw new Error(`${provider.id}: ${JSON.stringify(needle.slice(0, 40))}… appears ${a} times in ours, ${b} in the AI SDK's`);
    }
  }
}

const WORKLOADS = [
  ['small_text_x20000', smallText],
  ['small_text_x20000_real', smallTextReal],
  ['image_3_5mb', bigImage],
  ['conversation_2000', longConversation],
  ['conversation_2000_real', longConversationReal],
  ['multimodal_10_turns', multimodal],
];

const given = (flag) => process.argv.flatMap((arg, i, all) => (all[i - 1] === flag ? [arg] : []));
const chosen = given('--provider');
const providers = chosen.length ? PROVIDERS.filter((p) => chosen.includes(p.id)) : PROVIDERS;
const chosenWorkloads = given('--workload');
const workloads = chosenWorkloads.length ? WORKLOADS.filter(([name]) => chosenWorkloads.includes(name)) : WORKLOADS;
console.log(`agent-input ${version} (WebAssembly) vs ai 6 + its provider packages, Node ${process.version}`);
console.log('median wall time per workload run; ratio = request build time / agent-input convertJson time\n');
const header = ['provider', 'workload', 'input', 'convertJson', 'convert', 'request build', 'generateText', 'ratio'];
if (withFloor) header.push('read alone', 'build / read alone', 'syntax alone');
const rows = [];
for (const [name, make] of workloads) {
  const requests = make();
  const texts = requests.map((r) => JSON.stringify(r));
  const messageLists = requests.map((r) => toModelMessages(r.input));
  const inputBytes = texts.reduce((n, t) => n + t.length, 0);
  const budget = quick ? 300 : 3000;
  for (const provider of providers) {
    await sameContent(provider, requests[0]);
    const calls = await modelCalls(provider, messageLists);
    const sides = [
      (i) => ours(provider, texts[i]),
      (i) => oursValues(provider, requests[i]),
      (i) => requestBuild(provider, calls[i]),
    ];
    if (withGenerateText) sides.push((i) => aiSdk(provider, messageLists[i]));
    const floor = withFloor && benchReadTyped(texts[0]) !== undefined;
    if (floor) {
      sides.push((i) => {
        if (benchReadTyped(texts[i]) === undefined) throw new Error(`${name}: not a conversation of text blocks`);
      });
      sides.push((i) => {
        if (!benchReadSyntax(texts[i])) throw new Error(`${name}: not JSON`);
      });
    }
    const times = await timeInTurns(sides, requests.length, budget);
    const [tJson, tValues, tBuild] = times;
    const tSdk = withGenerateText ? times[3] : NaN;
    const [tFloor, tSyntax] = floor ? times.slice(-2) : [NaN, NaN];
    const row = [
      provider.id,
      name,
      `${(inputBytes / 1e6).toFixed(2)} MB`,
      `${tJson.toFixed(2)} ms`,
      `${tValues.toFixed(2)} ms`,
      `${tBuild.toFixed(2)} ms`,
      withGenerateText ? `${tSdk.toFixed(2)} ms` : '-',
      `${(tBuild / tJson).toFixed(2)}x`,
    ];
    if (withFloor && floor) row.push(`${tFloor.toFixed(2)} ms`, `${(tBuild / tFloor).toFixed(2)}x`, `${tSyntax.toFixed(2)} ms`);
    if (withFloor && !floor) row.push('-', '-', '-');
    rows.push(row);
  }
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i <= 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
