// A real AG-UI client against agent-gateway's `_execute/stream`: `@ag-ui/client`'s HttpAgent runs
// the echo agent, a Bedrock agent whose endpoint is a local stub writing ConverseStream frames
// with `@smithy/eventstream-codec` (an encoder independent of the gateway), and a Gemini agent
// whose stub streams `streamGenerateContent?alt=sse` with a thought signature, which must come
// back to Gemini through the client's `encryptedValue`. Every event the gateway writes is checked
// against `@ag-ui/core`'s schemas and, when the pinned Python models are installed
// (tests/agui-client/setup), against `ag-ui-protocol`'s.
//
//   cargo build -p agent-gateway && node --test tests/agui-client/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpAgent } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { EventStreamCodec } from '@smithy/eventstream-codec';

import { startGateway } from '../gateway.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const python = join(repo, 'target', 'agui-client', 'venv', 'bin', 'python');
const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** Every event the gateway wrote, in every test: validated by the Python models at the end. */
const written = [];

let gateway;
let stub;
let gemini;

/** A ConverseStream answer as AWS event-stream frames, encoded by @smithy/eventstream-codec. */
function converseStream(pieces) {
  const event = (type, payload) =>
    codec.encode({
      headers: {
        ':event-type': { type: 'string', value: type },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: 'event' },
      },
      body: new TextEncoder().encode(JSON.stringify(payload)),
    });
  return [
    event('messageStart', { role: 'assistant' }),
    ...pieces.map((text) => event('contentBlockDelta', { contentBlockIndex: 0, delta: { text } })),
    event('contentBlockStop', { contentBlockIndex: 0 }),
    event('messageStop', { stopReason: 'end_turn' }),
    event('metadata', { usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13 }, metrics: { latencyMs: 5 } }),
  ].map((frame) => Buffer.from(frame));
}

const PIECES = ['Hello ', 'from ', 'ConverseStream', '.'];

function startStub() {
  const seen = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      seen.push({ path: request.url, headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      for (const frame of converseStream(PIECES)) {
        // Each frame cut in two writes, so frames reach the gateway split.
        const cut = Math.floor(frame.length / 3);
        response.write(frame.subarray(0, cut));
        await new Promise((r) => setTimeout(r, 2));
        response.write(frame.subarray(cut));
      }
      response.end();
    });
  });
  return new Promise((resolveStub) =>
    server.listen(0, '127.0.0.1', () => resolveStub({ server, seen, url: `http://127.0.0.1:${server.address().port}` })),
  );
}

/**
 * Gemini's `streamGenerateContent?alt=sse` wire format: one `data:` line per
 * GenerateContentResponse, events ended by `\r\n\r\n`, as the API writes them.
 */
function geminiStream(responses) {
  return responses.map((r) => `data: ${JSON.stringify(r)}\r\n\r\n`).join('');
}

const SIGNATURE = 'CiQBcsjafE2nR0vXhmm+oT8VgZcj0W3pQ5hAbcD/efGhIjK=';
const THOUGHT = 'The user wants the weather in Paris: call get_weather.';

/** The answers of the Gemini stub, in order: a thought and a signed call, then text. */
const GEMINI_ANSWERS = [
  geminiStream([
    {
      candidates: [{ content: { parts: [{ text: THOUGHT, thought: true }], role: 'model' }, index: 0 }],
      usageMetadata: { promptTokenCount: 31, totalTokenCount: 31, thoughtsTokenCount: 12 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-1',
    },
    {
      candidates: [
        {
          content: {
            parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: SIGNATURE }],
            role: 'model',
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 31, candidatesTokenCount: 15, totalTokenCount: 58, thoughtsTokenCount: 12 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-1',
    },
  ]),
  geminiStream([
    {
      candidates: [{ content: { parts: [{ text: 'It is 18°C ' }], role: 'model' }, index: 0 }],
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-2',
    },
    {
      candidates: [{ content: { parts: [{ text: 'in Paris.' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 60, candidatesTokenCount: 8, totalTokenCount: 68 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-2',
    },
  ]),
];

/** A Gemini endpoint: records each request and answers with `answers[next]` in pieces. */
function startGeminiStub() {
  const seen = [];
  let next = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      seen.push({ path: request.url, headers: request.headers, body: JSON.parse(body) });
      const answer = Buffer.from(GEMINI_ANSWERS[next % GEMINI_ANSWERS.length]);
      next += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // In pieces of 11 bytes, so lines and UTF-8 characters arrive split.
      for (let at = 0; at < answer.length; at += 11) {
        response.write(answer.subarray(at, at + 11));
        await new Promise((r) => setImmediate(r));
      }
      response.end();
    });
  });
  return new Promise((resolveStub) =>
    server.listen(0, '127.0.0.1', () =>
      resolveStub({
        server,
        seen,
        url: `http://127.0.0.1:${server.address().port}`,
        answerNext: (i) => {
          next = i;
        },
      }),
    ),
  );
}

before(async () => {
  gateway = await startGateway();
  stub = await startStub();
  gemini = await startGeminiStub();
});

after(async () => {
  stub?.server.close();
  gemini?.server.close();
  await gateway?.stop();
});

const streamUrl = (agent) => `${gateway.base}/_plugins/_ml/agents/${agent}/_execute/stream`;

/** Every event is one of @ag-ui/core's, with no key its schema does not know. */
function checkWithCore(event) {
  const parsed = EventSchemas.parse(event);
  assert.deepEqual(Object.keys(event).sort(), Object.keys(parsed).sort(), `a key @ag-ui/core drops: ${JSON.stringify(event)}`);
}

/** Runs `agent` and returns what its subscriber saw. */
async function run(agent, parameters = {}) {
  const events = [];
  const result = await agent.runAgent(parameters, { onEvent: ({ event }) => events.push(event) });
  for (const event of events) {
    checkWithCore(event);
    written.push(event);
  }
  return { events, result, types: events.map((e) => e.type) };
}

test('HttpAgent runs the echo agent and continues its thread', async () => {
  const agent = new HttpAgent({
    url: streamUrl('echo'),
    threadId: `agui-echo-${process.pid}`,
    initialMessages: [
      { id: 'sys', role: 'system', content: 'Be brief.' },
      { id: 'u1', role: 'user', content: 'Hello, what do you see in this message?' },
    ],
  });
  const first = await run(agent);
  assert.equal(first.types[0], 'RUN_STARTED');
  assert.equal(first.types.at(-1), 'RUN_FINISHED');
  assert.equal(first.types.filter((t) => t === 'RUN_FINISHED' || t === 'RUN_ERROR').length, 1);
  assert.equal(first.events[0].threadId, agent.threadId);
  const deltas = first.events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT');
  assert.ok(deltas.length >= 3, `several chunks: ${first.types}`);
  const text = deltas.map((e) => e.delta).join('');
  assert.match(text, /^echo: 2 messages \(system, user\)/);
  // The client built the assistant message from the events.
  const answer = agent.messages.at(-1);
  assert.equal(answer.role, 'assistant');
  assert.equal(answer.content, text);

  // The next run sends the whole conversation; the gateway's memory of the thread continues.
  agent.addMessage({ id: 'u2', role: 'user', content: 'And now?' });
  const second = await run(agent);
  const again = second.events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta).join('');
  assert.match(again, /^echo: 4 messages \(system, user, assistant, user\)/);
  const memory = await (await fetch(`${gateway.base}/_plugins/_ml/memory/${agent.threadId}/messages`)).json();
  assert.deepEqual(
    memory.messages.map((m) => m.role),
    ['system', 'user', 'assistant', 'user', 'assistant'],
  );
});

test('HttpAgent runs a Bedrock agent streaming ConverseStream frames', async () => {
  const registered = await fetch(`${gateway.base}/_plugins/_ml/agents/_register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'bedrock',
      type: 'conversational',
      model: {
        model_id: 'anthropic.claude-3-haiku-20240307-v1:0',
        model_provider: 'bedrock/converse',
        credential: { api_key: 'bedrock-key' },
        model_parameters: { endpoint: stub.url, region: 'us-west-2' },
      },
    }),
  });
  const { agent_id: agentId } = await registered.json();
  const agent = new HttpAgent({
    url: streamUrl(agentId),
    initialMessages: [{ id: 'u1', role: 'user', content: 'Say hello.' }],
  });
  const { events, types } = await run(agent);
  assert.deepEqual(types, [
    'RUN_STARTED',
    'TEXT_MESSAGE_START',
    ...PIECES.map(() => 'TEXT_MESSAGE_CONTENT'),
    'TEXT_MESSAGE_END',
    'RUN_FINISHED',
  ]);
  assert.deepEqual(
    events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta),
    PIECES,
  );
  assert.equal(agent.messages.at(-1).content, PIECES.join(''));
  const request = stub.seen.at(-1);
  assert.equal(request.path, '/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream');
  assert.equal(request.headers.authorization, 'Bearer bedrock-key');
  assert.deepEqual(JSON.parse(request.body).messages, [{ role: 'user', content: [{ text: 'Say hello.' }] }]);
});

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The model turn of a Gemini request that answers `get_weather`, and the turn after it. */
function callTurn(request) {
  const contents = request.body.contents;
  const at = contents.findIndex((c) => c.role === 'model' && c.parts.some((p) => p.functionCall));
  assert.ok(at >= 0, `no model turn with a call: ${JSON.stringify(contents)}`);
  return { model: contents[at], next: contents[at + 1] };
}

test('a Gemini thought signature goes out to HttpAgent and comes back to Gemini', async () => {
  const registered = await fetch(`${gateway.base}/_plugins/_ml/agents/_register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'gemini',
      type: 'conversational',
      model: {
        model_id: 'gemini-2.5-flash',
        model_provider: 'gemini/v1beta/generatecontent',
        credential: { api_key: 'gemini-key' },
        model_parameters: { endpoint: gemini.url },
      },
    }),
  });
  const { agent_id: agentId } = await registered.json();
  const agent = new HttpAgent({
    url: streamUrl(agentId),
    threadId: `agui-gemini-${process.pid}`,
    initialMessages: [{ id: 'u1', role: 'user', content: 'Weather in Paris?' }],
  });

  // 1. The thought, the call, and the call's signature as REASONING_ENCRYPTED_VALUE.
  gemini.answerNext(0);
  const first = await run(agent, { tools: [WEATHER_TOOL] });
  assert.equal(gemini.seen.length, 1);
  assert.equal(gemini.seen[0].path, '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  assert.equal(gemini.seen[0].headers['x-goog-api-key'], 'gemini-key');
  assert.deepEqual(first.types, [
    'RUN_STARTED',
    'REASONING_START',
    'REASONING_MESSAGE_START',
    'REASONING_MESSAGE_CONTENT',
    'REASONING_MESSAGE_END',
    'REASONING_END',
    'TOOL_CALL_START',
    'TOOL_CALL_ARGS',
    'TOOL_CALL_END',
    'REASONING_ENCRYPTED_VALUE',
    'REASONING_ENCRYPTED_VALUE',
    'RUN_FINISHED',
  ]);
  const start = first.events.find((e) => e.type === 'TOOL_CALL_START');
  const [onMessage, onCall] = first.events.filter((e) => e.type === 'REASONING_ENCRYPTED_VALUE');
  assert.deepEqual([onMessage.subtype, onMessage.entityId], ['message', start.parentMessageId]);
  assert.deepEqual([onCall.subtype, onCall.entityId], ['tool-call', start.toolCallId]);
  assert.ok(onCall.encryptedValue.includes(SIGNATURE), onCall.encryptedValue);

  // The client kept the values on the message and the call it built from the events.
  const answer = agent.messages.find((m) => m.role === 'assistant');
  assert.equal(answer.id, start.parentMessageId);
  assert.equal(answer.encryptedValue, onMessage.encryptedValue);
  assert.equal(answer.toolCalls[0].encryptedValue, onCall.encryptedValue);
  assert.deepEqual(
    agent.messages.map((m) => m.role),
    ['user', 'reasoning', 'assistant'],
  );
  assert.equal(agent.messages[1].content, THOUGHT);

  // 2. The tool's result on the same thread: the gateway's memory holds the turn.
  agent.addMessage({ id: 't1', role: 'tool', toolCallId: start.toolCallId, content: '18°C, sunny' });
  gemini.answerNext(1);
  const second = await run(agent, { tools: [WEATHER_TOOL] });
  assert.equal(second.types.at(-1), 'RUN_FINISHED');
  assert.equal(second.events.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => e.delta).join(''), 'It is 18°C in Paris.');
  const expectedParts = [
    { text: THOUGHT, thought: true },
    { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: SIGNATURE },
  ];
  const fromMemory = callTurn(gemini.seen[1]);
  assert.deepEqual(fromMemory.model.parts, expectedParts);
  assert.deepEqual(fromMemory.next.parts[0].functionResponse.name, 'get_weather');

  // 3. The same conversation, as the client holds it, on a thread the gateway has never seen:
  // only the messages' encryptedValue can bring the signature back.
  const history = agent.messages.slice(0, 4);
  assert.deepEqual(
    history.map((m) => m.role),
    ['user', 'reasoning', 'assistant', 'tool'],
  );
  const elsewhere = new HttpAgent({ url: streamUrl(agentId), threadId: `agui-gemini-new-${process.pid}`, initialMessages: history });
  gemini.answerNext(1);
  const third = await run(elsewhere, { tools: [WEATHER_TOOL] });
  assert.equal(third.types.at(-1), 'RUN_FINISHED');
  const fromClient = callTurn(gemini.seen[2]);
  assert.deepEqual(fromClient.model.parts, expectedParts);
  assert.deepEqual(gemini.seen[2].body.contents, gemini.seen[1].body.contents);

  // Without the values, Gemini gets its documented placeholder instead: the signature above
  // came from the client.
  const stripped = history.map((m) => {
    const { encryptedValue, ...rest } = m;
    return rest.toolCalls ? { ...rest, toolCalls: rest.toolCalls.map(({ encryptedValue: _, ...c }) => c) } : rest;
  });
  const bare = new HttpAgent({ url: streamUrl(agentId), threadId: `agui-gemini-bare-${process.pid}`, initialMessages: stripped });
  gemini.answerNext(1);
  await run(bare, { tools: [WEATHER_TOOL] });
  assert.deepEqual(callTurn(gemini.seen[3]).model.parts, [
    { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'skip_thought_signature_validator' },
  ]);
});

test('AG-UI 1.0 sample events are valid as @ag-ui/core reads them', () => {
  const lines = readFileSync(join(here, 'events-1.0.jsonl'), 'utf8').split('\n').filter(Boolean);
  assert.ok(lines.length >= 15, `${lines.length} samples`);
  for (const line of lines) {
    const event = JSON.parse(line);
    checkWithCore(event);
    written.push(event);
  }
});

test('the wire: one data line per event, each valid as @ag-ui/core reads it', async () => {
  const response = await fetch(streamUrl('echo'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ input: 'Plain envelope, streamed.' }),
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const text = await response.text();
  const events = text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      assert.match(block, /^data: [^\n]+$/);
      return JSON.parse(block.slice('data: '.length));
    });
  for (const event of events) {
    checkWithCore(event);
    assert.equal(typeof event.timestamp, 'number');
    written.push(event);
  }
  assert.equal(events[0].type, 'RUN_STARTED');
  assert.equal(events.at(-1).type, 'RUN_FINISHED');
  assert.equal(events.at(-1).usage.length, 1);
});

test('every event validates against the Python ag-ui-protocol models', (t) => {
  if (!existsSync(python)) {
    t.skip(`${python} is missing: run tests/agui-client/setup`);
    return;
  }
  assert.ok(written.length > 10, `${written.length} events`);
  const checked = spawnSync(python, [join(here, 'check_events.py')], { input: JSON.stringify(written), encoding: 'utf8' });
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  assert.match(checked.stdout, new RegExp(`^${written.length} events valid`));
});
