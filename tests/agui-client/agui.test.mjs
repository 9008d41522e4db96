// A real AG-UI client against agent-gateway's `_execute/stream`: `@ag-ui/client`'s HttpAgent runs
// the echo agent and a Bedrock agent whose endpoint is a local stub writing ConverseStream frames
// with `@smithy/eventstream-codec` (an encoder independent of the gateway). Every event the
// gateway writes is checked against `@ag-ui/core`'s schemas and, when the pinned Python models
// are installed (tests/agui-client/setup), against `ag-ui-protocol`'s.
//
//   cargo build -p agent-gateway && node --test tests/agui-client/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

before(async () => {
  gateway = await startGateway();
  stub = await startStub();
});

after(async () => {
  stub?.server.close();
  await gateway?.stop();
});

const streamUrl = (agent) => `${gateway.base}/_plugins/_ml/agents/${agent}/_execute/stream`;

/** Every event is one of @ag-ui/core's, with no key its schema does not know. */
function checkWithCore(event) {
  const parsed = EventSchemas.parse(event);
  assert.deepEqual(Object.keys(event).sort(), Object.keys(parsed).sort(), `a key @ag-ui/core drops: ${JSON.stringify(event)}`);
}

/** Runs `agent` and returns what its subscriber saw. */
async function run(agent) {
  const events = [];
  const result = await agent.runAgent({}, { onEvent: ({ event }) => events.push(event) });
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
