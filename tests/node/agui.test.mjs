// The entry `agent-input/agui` from the packed package: AG-UI `RunAgentInput` ⇄ the
// standard request, and the stream decoders fed each provider's documented stream (the core's
// fixtures in crates/agent-input/tests/data/stream/) split anywhere. Every event and every
// `RunAgentInput` written is checked against `@ag-ui/core`'s own zod schemas (pinned 1.0.0), and
// each stream's final answer against the non-streaming `parseResponse` (`agent-input/response`).

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { EventSchemas, RunAgentInputSchema } from '@ag-ui/core/schemas';

import { pkg, projectDir, responsePkg } from './package.mjs';

const entry = join(projectDir, 'agui-entry.mjs');
writeFileSync(entry, "export * from 'agent-input/agui';\n");
const agui = await import(pathToFileURL(entry).href);

const streams = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'crates', 'agent-input', 'tests', 'data', 'stream');

// A 1×1 PNG and a PDF's first bytes, as the core's AG-UI tests use them.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQK';

const run = (messages, extra = {}) => ({
  threadId: 'thread-1',
  runId: 'run-1',
  state: {},
  messages,
  tools: [],
  context: [],
  forwardedProps: {},
  ...extra,
});

test('agent-input/agui exports exactly its functions; the base entry none of them', () => {
  assert.deepEqual(Object.keys(agui).sort(), ['createStreamDecoder', 'fromAgUi', 'toAgUi']);
  for (const name of Object.keys(agui)) assert.equal(pkg[name], undefined, `the base entry exports ${name}`);
});

test('fromAgUi reads every role, both part dialects and the tools into a request the base entry converts', () => {
  const body = run(
    [
      { id: 's', role: 'system', content: 'Be brief.' },
      { id: 'u', role: 'user', content: [
        { type: 'text', text: 'Compare' },
        { type: 'binary', mimeType: 'image/png', data: PNG },
        { type: 'document', source: { type: 'data', value: PDF, mimeType: 'application/pdf' } },
      ] },
      { id: 'a', role: 'assistant', content: '',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
      { id: 't', role: 'tool', content: '18°C', toolCallId: 'c1' },
    ],
    {
      tools: [{ name: 'weather', description: 'Gets the weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      context: [{ description: 'locale', value: 'fr-FR' }],
      protocolVersion: '1.0.0',
    },
  );
  const result = agui.fromAgUi(body);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.deepEqual(result.request.parameters, { memory_id: 'thread-1' });
  assert.deepEqual(result.request.input.map((m) => m.role), ['system', 'user', 'assistant', 'tool']);
  assert.deepEqual(result.request.input[1].content.map((b) => b.type), ['text', 'image', 'document']);
  assert.equal(result.request.input[1].content[1].source.data, PNG);
  assert.deepEqual(result.request.input[2].toolCalls, [
    { id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
  ]);
  assert.equal(result.request.input[3].toolCallId, 'c1');
  assert.deepEqual([result.threadId, result.runId], ['thread-1', 'run-1']);
  assert.deepEqual(result.tools, [
    { name: 'weather', description: 'Gets the weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
  ]);
  assert.deepEqual(result.context, [{ description: 'locale', value: 'fr-FR' }]);
  assert.deepEqual(result.errors, []);
  // The request is a standard one: the base entry validates and converts it with the tools.
  assert.equal(pkg.validate(result.request).valid, true);
  const converted = pkg.convert(result.request, { provider: 'bedrock-converse', tools: result.tools });
  assert.equal(converted.ok, true, JSON.stringify(converted.errors));
  // The same body as JSON text reads the same.
  assert.deepEqual(agui.fromAgUi(JSON.stringify(body)), result);
});

test('fromAgUi with no messages continues the thread: a request without input', () => {
  const result = agui.fromAgUi(run([]));
  assert.equal(result.ok, true);
  assert.deepEqual(result.request, { parameters: { memory_id: 'thread-1' } });
});

test('fromAgUi reports every problem with a code and a path into the AG-UI body', () => {
  const part = (p) => run([{ id: 'u', role: 'user', content: [p] }]);
  // (body, code, path), from the core's tests/agui.rs.
  const cases = [
    [JSON.stringify('hi'), 'invalid_field_type', ''],
    [{ ...run([]), runId: undefined }, 'missing_field', '/runId'],
    [run([{ id: 'u', role: 'robot', content: 'hi' }]), 'invalid_role', '/messages/0/role'],
    [run([{ id: 't', role: 'tool', content: 'x' }]), 'missing_field', '/messages/0/toolCallId'],
    [part({ type: 'audio', source: { type: 'data', value: 'AAAA', mimeType: 'audio/wav' } }), 'unsupported_content_type', '/messages/0/content/0/type'],
    [part({ type: 'binary', mimeType: 'image/tiff', data: 'AAAA' }), 'unsupported_format', '/messages/0/content/0/mimeType'],
    [part({ type: 'image', source: { type: 'file', value: 'file-123' } }), 'unsupported_source_type', '/messages/0/content/0/source/type'],
    [part({ type: 'image', source: { type: 'data', value: '@@@', mimeType: 'image/png' } }), 'invalid_base64', '/messages/0/content/0/source/value'],
  ];
  for (const [body, code, path] of cases) {
    const result = agui.fromAgUi(body);
    assert.equal(result.ok, false, JSON.stringify(body));
    assert.ok(
      result.errors.some((e) => e.code === code && e.path === path),
      `${JSON.stringify(body)}: no ${code} at ${path} in ${JSON.stringify(result.errors)}`,
    );
    assert.equal('request' in result, false);
  }
  assert.equal(agui.fromAgUi('{"threadId": ').errors[0].code, 'invalid_json');
  const limited = agui.fromAgUi(run([{ id: 'u', role: 'user', content: 'hi' }]), { limits: { maxBodyBytes: 10 } });
  assert.equal(limited.errors[0].code, 'too_large');
  assert.throws(() => agui.fromAgUi(undefined), TypeError);
  assert.throws(() => agui.fromAgUi(run([]), 'options'), TypeError);
});

test('toAgUi writes a RunAgentInput that @ag-ui/core accepts and fromAgUi reads back', () => {
  const request = {
    input: [
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image', source: { type: 'base64', format: 'png', data: PNG } },
      ] },
      { role: 'assistant', content: [],
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: '18°C' }] },
    ],
    parameters: { memory_id: 'mem-7' },
  };
  const tools = [{ name: 'weather', description: 'Gets the weather', inputSchema: { type: 'object', properties: {} } }];
  const result = agui.toAgUi(request, { runId: 'r9', tools });
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  const body = result.body;
  assert.equal(body.threadId, 'mem-7', 'the memory id is the thread');
  assert.equal(body.runId, 'r9');
  assert.deepEqual(body.messages.map((m) => [m.id, m.role]), [['r9-0', 'system'], ['r9-1', 'user'], ['r9-2', 'assistant'], ['r9-3', 'tool']]);
  assert.deepEqual(body.messages[1].content[1], { type: 'image', source: { type: 'data', value: PNG, mimeType: 'image/png' } });
  assert.deepEqual(body.tools, [{ name: 'weather', description: 'Gets the weather', parameters: { type: 'object', properties: {} } }]);
  const parsed = RunAgentInputSchema.safeParse(body);
  assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
  // Back again: the same standard input.
  const back = agui.fromAgUi(body);
  assert.equal(back.ok, true, JSON.stringify(back.errors));
  assert.deepEqual(back.request.input, request.input);
  assert.deepEqual(back.tools, tools);
  // Text input is one user message; ids default to random UUIDs.
  const text = agui.toAgUi({ input: 'Hi' });
  assert.match(text.body.threadId, /^[0-9a-f-]{36}$/);
  assert.match(text.body.runId, /^[0-9a-f-]{36}$/);
  assert.deepEqual(text.body.messages, [{ id: `${text.body.runId}-0`, role: 'user', content: 'Hi' }]);
});

test('toAgUi reports what AG-UI cannot carry, and bad input, at paths into the request', () => {
  const media = agui.toAgUi({ input: [
    { role: 'system', content: [{ type: 'text', text: 'See' }, { type: 'image', source: { type: 'base64', format: 'png', data: PNG } }] },
    { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
  ] });
  assert.equal(media.ok, false);
  assert.deepEqual(media.errors.map((e) => [e.code, e.path]), [['media_not_allowed_in_role', '/input/0/content/1']]);
  const role = agui.toAgUi({ input: [{ role: 'critic', content: [{ type: 'text', text: 'Hm' }] }, { role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
  assert.deepEqual(role.errors.map((e) => [e.code, e.path]), [['role_not_supported', '/input/0/role']]);
  const invalid = agui.toAgUi({ input: '' });
  assert.deepEqual(invalid.errors.map((e) => [e.code, e.path]), [['empty_input', '/input']]);
  const options = agui.toAgUi({ input: 'Hi' }, { threadId: 3, tools: [{ description: 'no name' }], allowPrefil: true });
  assert.equal(options.ok, false);
  assert.ok(options.errors.some((e) => e.path === '/options/threadId'), JSON.stringify(options.errors));
  assert.ok(options.errors.some((e) => e.path === '/options/tools'), JSON.stringify(options.errors));
  assert.ok(options.errors.some((e) => e.path === '/options/allowPrefil'), 'a misspelt option is reported');
});

test('toAgUi names what AG-UI has no place for: provider fields and a provider\'s own tool', () => {
  const request = { input: [{
    role: 'user',
    content: [{ type: 'text', text: 'Hi' }],
    providerFields: { provider: 'anthropic-messages', items: [{ on: 0, fields: { cache_control: { type: 'ephemeral' } } }] },
  }] };
  const tools = [
    { type: 'provider_tool', provider: 'gemini', tool: { googleSearch: {} } },
    { name: 'lookup', provider_fields: { provider: 'openai-responses', fields: { strict: true } } },
  ];
  const result = agui.toAgUi(request, { runId: 'r1', threadId: 't1', tools });
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.deepEqual(result.warnings.map((w) => [w.code, w.path]), [
    ['provider_fields_dropped', '/input/0/providerFields/items/0/fields'],
    ['provider_item_dropped', '/options/tools/0'],
    ['provider_fields_dropped', '/options/tools/1/provider_fields'],
  ]);
  assert.deepEqual(result.body.tools.map((t) => t.name), ['lookup']);
  assert.deepEqual(result.body.messages, [{ role: 'user', id: 'r1-0', content: 'Hi' }]);
});

// The five documented streams tell one answer: text, then a get_weather call for Seattle.
const STREAMS = [
  ['bedrock-converse', 'bedrock_converse_stream.bin', 'tooluse_1'],
  ['openai/v1/chat/completions', 'openai_chat.sse', 'call_1'],
  ['openai-responses', 'openai_responses.sse', 'call_1'],
  ['anthropic-messages', 'anthropic_messages.sse', 'toolu_1'],
  ['gemini/v1beta/generatecontent', 'gemini.sse', 'call_0'],
];

// The same answers as non-streaming bodies (crates/agent-input/tests/stream.rs).
const NON_STREAMED = {
  'bedrock-converse': { output: { message: { role: 'assistant', content: [{ text: 'Let me check the weather. ☀' },
    { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Seattle' } } }] } },
  stopReason: 'tool_use', usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19 } },
  'openai/v1/chat/completions': { choices: [{ index: 0, message: { role: 'assistant', content: 'Let me check the weather. ☀',
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Seattle"}' } }] },
  finish_reason: 'tool_calls' }], usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 } },
  'openai-responses': { status: 'completed', output: [
    { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Let me check the weather. ☀' }] },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city": "Seattle"}' }],
  usage: { input_tokens: 12, output_tokens: 7, total_tokens: 19 } },
  'anthropic-messages': { content: [{ type: 'thinking', thinking: 'The user wants the weather.', signature: 'EqQBCgIYAhIM' },
    { type: 'text', text: 'Let me check the weather. ☀' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Seattle' } }],
  stop_reason: 'tool_use', usage: { input_tokens: 12, output_tokens: 7 } },
  // The thought part the stream carries too (as the core's tests/stream.rs): reasoning, not text.
  'gemini/v1beta/generatecontent': { candidates: [{ content: { role: 'model', parts: [
    { text: 'Thinking about weather', thought: true }, { text: 'Let me check the weather. ☀' },
    { functionCall: { name: 'get_weather', args: { city: 'Seattle' } } }] }, finishReason: 'STOP' }],
  usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 } },
};

/** The AG-UI events each stream must give (run `r` of thread `t`), from the documented event flow. */
function expectedEvents(provider, callId) {
  const text = (delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'r-0', delta });
  const textStart = { type: 'TEXT_MESSAGE_START', messageId: 'r-0', role: 'assistant' };
  const textEnd = { type: 'TEXT_MESSAGE_END', messageId: 'r-0' };
  const reasoning = (delta) => [
    { type: 'REASONING_START', messageId: 'r-reasoning-0' },
    { type: 'REASONING_MESSAGE_START', messageId: 'r-reasoning-0', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r-reasoning-0', delta },
  ];
  const reasoningEnd = [
    { type: 'REASONING_MESSAGE_END', messageId: 'r-reasoning-0' },
    { type: 'REASONING_END', messageId: 'r-reasoning-0' },
  ];
  const call = (...deltas) => [
    { type: 'TOOL_CALL_START', toolCallId: callId, toolCallName: 'get_weather', parentMessageId: 'r-0' },
    ...deltas.map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId: callId, delta })),
    { type: 'TOOL_CALL_END', toolCallId: callId },
  ];
  const started = { type: 'RUN_STARTED', threadId: 't', runId: 'r' };
  const finished = { type: 'RUN_FINISHED', threadId: 't', runId: 'r', usage: [{ inputTokens: 12, outputTokens: 7, totalTokens: 19 }] };
  const args = ['{"city":', ' "Seattle"}'];
  switch (provider) {
    case 'anthropic-messages': {
      // The thinking block, signed, goes back to Anthropic before the text (contract §10).
      const state = { provider: 'anthropic-messages', items: [{ before: 0,
        block: { type: 'thinking', thinking: 'The user wants the weather.', signature: 'EqQBCgIYAhIM' } }] };
      const encrypted = { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r-0', encryptedValue: state };
      return [started, ...reasoning('The user wants the weather.'), ...reasoningEnd, textStart, text('Let me '),
        text('check the weather. ☀'), textEnd, ...call(...args), encrypted, finished];
    }
    case 'openai-responses': {
      // The items' ids pair them with their reasoning on the next request (contract §3.5).
      const onMessage = { provider: 'openai-responses', items: [{ on: 0, id: 'msg_1' }] };
      const onCall = { provider: 'openai-responses', items: [{ id: 'fc_1' }] };
      return [started, textStart, text('Let me '), text('check the weather. ☀'), textEnd, ...call(...args),
        { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r-0', encryptedValue: onMessage },
        { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: callId, encryptedValue: onCall }, finished];
    }
    case 'gemini/v1beta/generatecontent': {
      // The thought part goes back as given, after the text (one element) and before the call.
      const thought = { provider: 'gemini', items: [{ before: 1, block: { text: 'Thinking about weather', thought: true } }] };
      return [started, textStart, text('Let me '), textEnd, ...reasoning('Thinking about weather'), ...reasoningEnd,
        textStart, text('check the weather. ☀'), textEnd, ...call('{"city":"Seattle"}'),
        { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'r-0', encryptedValue: thought }, finished];
    }
    default:
      return [started, textStart, text('Let me '), text('check the weather. ☀'), textEnd, ...call(...args), finished];
  }
}

/** Decodes `bytes` cut at `cuts`; every event validated against @ag-ui/core's schemas. */
function decode(provider, bytes, cuts = []) {
  const decoder = agui.createStreamDecoder(provider, { threadId: 't', runId: 'r' });
  const events = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...decoder.push(bytes.subarray(from, cut)));
    from = cut;
  }
  const finish = decoder.finish();
  events.push(...finish.events);
  for (const event of events) {
    assert.equal(typeof event.timestamp, 'number');
    const parsed = EventSchemas.safeParse(event);
    assert.equal(parsed.success, true, `${JSON.stringify(event)}: ${JSON.stringify(parsed.error?.issues)}`);
    assert.deepEqual(parsed.data, event, 'no key the schema does not know');
  }
  const { events: _, ...result } = finish;
  // An encrypted value is JSON text: compared as the value it holds.
  const readable = ({ timestamp, ...event }) =>
    event.type === 'REASONING_ENCRYPTED_VALUE' ? { ...event, encryptedValue: JSON.parse(event.encryptedValue) } : event;
  return { events: events.map(readable), result };
}

test('every provider\'s stream decodes to the documented AG-UI events and the non-streaming answer', () => {
  for (const [provider, file, callId] of STREAMS) {
    const bytes = new Uint8Array(readFileSync(join(streams, file)));
    const { events, result } = decode(provider, bytes);
    assert.deepEqual(events, expectedEvents(provider, callId), file);
    const { errors, ...parsed } = responsePkg.parseResponse(provider, NON_STREAMED[provider]);
    assert.deepEqual(errors, []);
    // The Gemini sample streams its thought in the middle of the text, which the whole answer
    // gives first: the same reasoning state, each item placed where it came.
    for (const answer of [result, parsed]) {
      for (const item of answer.message.reasoningState?.items ?? []) {
        delete item.before;
        delete item.on;
      }
    }
    assert.deepEqual(result, parsed, `${file}: the streamed answer is parseResponse's`);
  }
});

test('a stream split at every byte offset, and at random offsets, decodes the same', () => {
  let seed = 0x2545f491;
  const next = (bound) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % bound;
  };
  for (const [provider, file] of STREAMS) {
    const bytes = new Uint8Array(readFileSync(join(streams, file)));
    const whole = decode(provider, bytes);
    for (let cut = 0; cut <= bytes.length; cut++) assert.deepEqual(decode(provider, bytes, [cut]), whole, `${file} cut at ${cut}`);
    for (let round = 0; round < 100; round++) {
      const cuts = Array.from({ length: 1 + next(12) }, () => next(bytes.length + 1)).sort((a, b) => a - b);
      assert.deepEqual(decode(provider, bytes, cuts), whole, `${file} cuts ${cuts}`);
    }
    const byteByByte = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    assert.deepEqual(decode(provider, bytes, byteByByte), whole, `${file} byte by byte`);
  }
});

test('a provider error, a corrupted frame or a cut stream ends the run with exactly one RUN_ERROR', () => {
  const types = (events) => events.map((e) => e.type);
  // Bedrock's exception frame (an error from the service mid-stream).
  const exception = decode('bedrock-converse', new Uint8Array(readFileSync(join(streams, 'bedrock_exception.bin'))));
  assert.equal(exception.events[0].type, 'RUN_STARTED');
  assert.equal(types(exception.events).filter((t) => t === 'RUN_ERROR').length, 1);
  assert.equal(exception.events.at(-1).type, 'RUN_ERROR');
  assert.equal(exception.result.ok, false);
  assert.equal(exception.result.error.code, 'provider_error');

  // One byte changed inside the first frame's message: its CRC no longer matches.
  const bytes = new Uint8Array(readFileSync(join(streams, 'bedrock_converse_stream.bin')));
  const corrupted = bytes.slice();
  corrupted[20] ^= 0xff;
  const decoder = agui.createStreamDecoder('bedrock-converse', { threadId: 't', runId: 'r' });
  const events = decoder.push(corrupted);
  assert.deepEqual(types(events), ['RUN_STARTED', 'RUN_ERROR']);
  assert.equal(events[1].code, 'crc_mismatch');
  assert.deepEqual(decoder.push(bytes), [], 'nothing after the terminal event');
  const finish = decoder.finish();
  assert.deepEqual(finish.events, []);
  assert.deepEqual([finish.ok, finish.error.code], [false, 'crc_mismatch']);
  assert.throws(() => decoder.push(bytes), TypeError);
  assert.throws(() => decoder.finish(), TypeError);

  // Cut inside a frame: the end of the stream is the error.
  const cut = decode('bedrock-converse', bytes.subarray(0, bytes.length - 3));
  assert.deepEqual([cut.events.at(-1).type, cut.events.at(-1).code], ['RUN_ERROR', 'truncated']);
  assert.equal(cut.result.error.code, 'truncated');

  // SSE that is not the provider's JSON.
  const bad = decode('openai-chat', new TextEncoder().encode('data: {not json}\n\n'));
  assert.deepEqual(types(bad.events), ['RUN_STARTED', 'RUN_ERROR']);
  assert.equal(bad.result.error.code, 'invalid_json');
});

test('createStreamDecoder refuses unknown providers and bad options', () => {
  assert.throws(() => agui.createStreamDecoder('bedrock'), { name: 'TypeError', message: /unknown provider 'bedrock'; use one of bedrock-converse/ });
  assert.throws(() => agui.createStreamDecoder(7), TypeError);
  assert.throws(() => agui.createStreamDecoder('gemini', { runId: 1 }), TypeError);
  assert.throws(() => agui.createStreamDecoder('gemini', { maxFrameBytes: 0 }), TypeError);
  // A frame over the limit is an error, not a buffer that grows.
  const decoder = agui.createStreamDecoder('openai-chat', { threadId: 't', runId: 'r', maxFrameBytes: 64 });
  const events = decoder.push(new TextEncoder().encode(`data: ${'x'.repeat(100)}`));
  assert.deepEqual([events.at(-1).type, events.at(-1).code], ['RUN_ERROR', 'too_large']);
  // Without ids, each run gets random ones.
  const first = agui.createStreamDecoder('gemini').push(new Uint8Array())[0];
  assert.equal(first.type, 'RUN_STARTED');
  assert.match(first.runId, /^[0-9a-f-]{36}$/);
});
