// agent-gateway --upstream in front of a real ml-commons: registration, _execute, _execute/stream
// and memory reads reach the node and come back as the node answers them; input the gateway finds
// invalid is answered by the gateway, and the node never sees it.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { startGateway } from '../gateway.mjs';
import { PROVIDERS, call, capturedResponse, memoryContainer, startProviderStub, url } from './cluster.mjs';

const openai = PROVIDERS.find((p) => p.id === 'openai-chat');

let stub;
let gateway;
before(async () => {
  stub = await startProviderStub();
  gateway = await startGateway(['--upstream', url, '--no-echo-agent', '--quiet']);
});
after(async () => {
  await gateway?.stop();
  await stub?.stop();
});

/** A call through the gateway. */
const viaGateway = (method, path, body) => call(method, path, body, { base: gateway.base });

const registration = (name, type, model, extra = {}) => ({
  name,
  type,
  model: { model_id: model, model_provider: openai.mlCommons, credential: { openai_api_key: 'sk-test' } },
  ...extra,
});

test('registration and _execute go through to the node, which calls the provider', async () => {
  const registered = await viaGateway('POST', '/_plugins/_ml/agents/_register', registration('proxied v1', 'conversational', 'proxy-v1', { memory: { type: 'conversation_index' } }));
  assert.equal(registered.status, 200, registered.text);
  const agent = registered.json.agent_id;
  // The agent is the node's: it reads back from the node itself.
  const stored = await call('GET', `/_plugins/_ml/agents/${agent}`);
  assert.equal(stored.json?.model?.model_provider, openai.mlCommons);

  stub.take('proxy-v1');
  const executed = await viaGateway('POST', `/_plugins/_ml/agents/${agent}/_execute`, { input: 'What is the capital of France?' });
  assert.equal(executed.status, 200, executed.text);
  const sent = stub.take('proxy-v1');
  assert.equal(sent.length, 1);
  assert.deepEqual(JSON.parse(sent[0].body).messages, [{ role: 'user', content: 'What is the capital of France?' }]);
  const outputs = executed.json.inference_results[0].output;
  const expected = capturedResponse(openai.capture).choices[0].message.content;
  assert.equal(outputs.find((o) => o.name === 'response').dataAsMap.response, expected);

  // Memory reads: the same answer through the gateway as from the node.
  const memory = outputs.find((o) => o.name === 'memory_id').result;
  for (const path of [`/_plugins/_ml/memory/${memory}`, `/_plugins/_ml/memory/${memory}/messages`]) {
    const [proxied, direct] = [await viaGateway('GET', path), await call('GET', path)];
    assert.equal(proxied.status, 200, proxied.text);
    assert.deepEqual(proxied.json, direct.json, path);
  }
  assert.equal((await viaGateway('GET', `/_plugins/_ml/memory/${memory}/messages`)).json.messages[0].input, 'What is the capital of France?');
});

test('a conversational_v2 agent runs content blocks through the proxy', async () => {
  const registered = await viaGateway(
    'POST',
    '/_plugins/_ml/agents/_register',
    registration('proxied v2', 'conversational_v2', 'proxy-v2', { memory: { type: 'agentic_memory', memory_container_id: await memoryContainer() } }),
  );
  assert.equal(registered.status, 200, registered.text);
  stub.take('proxy-v2');
  const input = [
    { type: 'text', text: 'What is in this image?' },
    { type: 'image', source: { type: 'base64', format: 'png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' } },
  ];
  const executed = await viaGateway('POST', `/_plugins/_ml/agents/${registered.json.agent_id}/_execute`, { input });
  assert.equal(executed.status, 200, executed.text);
  const [sent] = stub.take('proxy-v2');
  assert.equal(JSON.parse(sent.body).messages[0].content[1].image_url.url, `data:image/png;base64,${input[1].source.data}`);
  assert.equal(executed.json.message.role, 'assistant');
  assert.ok(executed.json.memory_id);
});

test('_execute/stream reaches the node, and its answer comes back as the node gave it', async () => {
  const v2 = await call(
    'POST',
    '/_plugins/_ml/agents/_register',
    registration('stream v2', 'conversational_v2', 'proxy-stream-v2', { memory: { type: 'agentic_memory', memory_container_id: await memoryContainer() } }),
  );
  const v1 = await call('POST', '/_plugins/_ml/agents/_register', registration('stream v1', 'conversational', 'proxy-stream-v1'));
  const cases = [
    // conversational_v2 agents do not stream: the node's 400.
    [v2.json.agent_id, { input: 'Hello' }],
    // The 3.6 streaming action reads only parameters, and this node has no stream transport
    // (docs/ml-commons-node.md): one error event each.
    [v1.json.agent_id, { input: 'Hello' }],
    [v1.json.agent_id, { parameters: { question: 'Hello' } }],
  ];
  for (const [agent, body] of cases) {
    const path = `/_plugins/_ml/agents/${agent}/_execute/stream`;
    const direct = await call('POST', path, body);
    const proxied = await viaGateway('POST', path, body);
    assert.equal(proxied.status, direct.status, `${JSON.stringify(body)}: ${proxied.text}`);
    // The node's own words, passed on (the error event names no ids that differ between calls).
    assert.equal(proxied.text.replaceAll(agent, 'AGENT'), direct.text.replaceAll(agent, 'AGENT'));
  }
  assert.equal(stub.take('proxy-stream-v1').length + stub.take('proxy-stream-v2').length, 0, 'no provider call without a stream transport');
});

test('invalid input is answered by the gateway and never reaches the node', async () => {
  const registered = await call('POST', '/_plugins/_ml/agents/_register', registration('guarded', 'conversational', 'proxy-guarded', { memory: { type: 'conversation_index' } }));
  const agent = registered.json.agent_id;
  const memories = async () => (await call('GET', '/_plugins/_ml/memory?max_results=1000')).json.memories.length;
  const before = await memories();
  stub.take('proxy-guarded');
  for (const [body, code] of [
    [{ input: '   ' }, 'empty_input'],
    [{ input: [{ type: 'image', source: { type: 'base64', format: 'bmp', data: 'Qk0=' } }] }, 'unsupported_format'],
    [{ input: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }, { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] }] }, 'last_message_role'],
  ]) {
    for (const path of [`/_plugins/_ml/agents/${agent}/_execute`, `/_plugins/_ml/agents/${agent}/_execute/stream`]) {
      const answer = await viaGateway('POST', path, body);
      assert.equal(answer.status, 400, `${path} ${answer.text}`);
      assert.ok(answer.text.includes(code), `${path}: ${answer.text}`);
    }
  }
  // A memory is the trace of an execute on this agent's node: none was made, no provider called.
  assert.equal(await memories(), before);
  assert.equal(stub.take('proxy-guarded').length, 0);
  // A registration the node would refuse is refused here, with its path.
  const bad = await viaGateway('POST', '/_plugins/_ml/agents/_register', { name: 'x', type: 'conversational', model: { model_id: 'm', model_provider: 'acme/chat' } });
  assert.equal(bad.status, 400, bad.text);
  assert.ok(bad.text.includes('/model/model_provider'), bad.text);
});

test("input the agent's type refuses is answered by the gateway, which knows the type from the registration or by reading the agent", async () => {
  const viaProxy = await viaGateway('POST', '/_plugins/_ml/agents/_register', registration('typed via gateway', 'conversational', 'proxy-typed'));
  const direct = await call('POST', '/_plugins/_ml/agents/_register', registration('typed direct', 'conversational', 'proxy-typed'));
  assert.equal(viaProxy.status, 200, viaProxy.text);
  assert.equal(direct.status, 200, direct.text);
  const blocks = { input: [{ type: 'text', text: 'What is the capital of France?' }] };
  for (const agent of [viaProxy.json.agent_id, direct.json.agent_id]) {
    const path = `/_plugins/_ml/agents/${agent}/_execute`;
    stub.take('proxy-typed');
    const refused = await viaGateway('POST', path, blocks);
    assert.equal(refused.status, 400, refused.text);
    const [diagnostic] = refused.json.error.details;
    assert.equal(diagnostic.code, 'unsupported_by_agent_type', refused.text);
    assert.equal(diagnostic.path, '/input');
    assert.deepEqual(diagnostic.expected, ['ag_ui', 'conversational_v2']);
    assert.match(diagnostic.message, /^a conversational agent registered with a `model` block takes text input only, not content blocks/);
    assert.equal(stub.take('proxy-typed').length, 0, 'the node was not called');
    // The node itself refuses it with the words the gateway quotes.
    const node = await call('POST', path, blocks);
    assert.equal(node.status, 400, node.text);
    assert.ok(diagnostic.message.includes(`"${node.json.error.details.split('. Please')[0]}"`), `${diagnostic.message}\n${node.text}`);
    // A text goes through.
    const text = await viaGateway('POST', path, { input: 'What is the capital of France?' });
    assert.equal(text.status, 200, text.text);
    assert.equal(stub.take('proxy-typed').length, 1);
  }
});
