// A cluster of three real nodes behind agent-gateway (--upstream once per node): a conversation
// goes on through the gateway while the node holding its memory's primary shard is killed as a
// crash would kill it, every turn the gateway acknowledged reads back from the memory, and input
// the gateway finds invalid still never reaches the cluster. tests/opensearch/run grows the node
// of the other tests into this cluster and sets OPENSEARCH_URLS; it runs this file last.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';

import { startGateway } from '../gateway.mjs';
import { PROVIDERS, call, capturedResponse, repo, startProviderStub } from './cluster.mjs';

const urls = (process.env.OPENSEARCH_URLS ?? '').split(',').filter(Boolean);
if (urls.length < 3) throw new Error('OPENSEARCH_URLS names fewer than 3 nodes: run this file through bash tests/opensearch/run');

const openai = PROVIDERS.find((p) => p.id === 'openai-chat');
const MODEL = 'failover';
// The indices ml-commons keeps a conversation in, and the one its agents live in.
const MEMORY_INDICES = ['.plugins-ml-memory-meta', '.plugins-ml-memory-message', '.plugins-ml-agent'];

let stub;
let gateway;
before(async () => {
  stub = await startProviderStub();
  gateway = await startGateway([...urls.flatMap((u) => ['--upstream', u]), '--no-echo-agent', '--quiet']);
});
after(async () => {
  await gateway?.stop();
  await stub?.stop();
});

/** A call through the gateway; a turn may wait for the cluster to promote a replica. */
const viaGateway = (method, path, body) => call(method, path, body, { base: gateway.base, timeoutMs: 90_000 });

/** The copies of `index`'s shard: `[{prirep, state, node}]`, read from node `base`. */
async function copies(base, index) {
  const shards = await call('GET', `/_cat/shards/${index}?format=json&h=prirep,state,node`, undefined, { base });
  assert.equal(shards.status, 200, shards.text);
  return shards.json;
}

test('a conversation goes on through the gateway across the loss of the node holding its memory', async () => {
  const registered = await viaGateway('POST', '/_plugins/_ml/agents/_register', {
    name: 'failover',
    type: 'conversational',
    model: { model_id: MODEL, model_provider: openai.mlCommons, credential: { openai_api_key: 'sk-test' } },
    memory: { type: 'conversation_index' },
  });
  assert.equal(registered.status, 200, registered.text);
  const agent = registered.json.agent_id;
  const execute = (input, memory) =>
    viaGateway('POST', `/_plugins/_ml/agents/${agent}/_execute`, memory ? { input, parameters: { memory_id: memory } } : { input });

  const first = await execute('Turn one: what is the capital of France?');
  assert.equal(first.status, 200, first.text);
  const memory = first.json.inference_results[0].output.find((o) => o.name === 'memory_id').result;
  const acknowledged = ['Turn one: what is the capital of France?'];

  // Each index of the conversation and the agent has a copy on two different nodes.
  const health = await call('GET', '/_cluster/health?wait_for_status=green&timeout=60s', undefined, { base: urls[0] });
  assert.equal(health.json?.status, 'green', health.text);
  for (const index of MEMORY_INDICES) {
    const held = await copies(urls[0], index);
    assert.equal(held.length, 2, `${index}: ${JSON.stringify(held)}`);
    assert.ok(held.every((c) => c.state === 'STARTED') && held[0].node !== held[1].node, `${index}: ${JSON.stringify(held)}`);
  }

  // The node holding the primary of the conversation's messages goes down as a crash would take it.
  const primary = (await copies(urls[0], MEMORY_INDICES[1])).find((c) => c.prirep === 'p').node;
  const victim = Number(primary.replace('node-', ''));
  const killed = spawnSync('bash', ['scripts/opensearch', 'kill-node', String(victim)], { cwd: repo, encoding: 'utf8' });
  assert.equal(killed.status, 0, killed.stderr);
  const survivor = urls.find((_, i) => i + 1 !== victim);

  // ml-commons answers 500 `NodeNotConnectedException` while the cluster still counts the dead node
  // (it dispatches the model call to it): wait until the survivors have removed it, then the
  // conversation goes on through the gateway, on the nodes left.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const nodes = await call('GET', '/_cat/nodes?format=json&h=name', undefined, { base: survivor });
    if (nodes.status === 200 && !nodes.json.some((n) => n.name === `node-${victim}`)) break;
    assert.ok(Date.now() < deadline, `node-${victim} is still in the cluster: ${nodes.text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  for (const input of ['Turn two: and of Italy?', 'Turn three: and of Spain?']) {
    const turn = await execute(input, memory);
    assert.equal(turn.status, 200, `${input}: ${turn.text}`);
    acknowledged.push(input);
  }
  const expected = capturedResponse(openai.capture).choices[0].message.content;
  assert.equal(stub.take(MODEL).length, 3, 'one provider call per turn: no turn ran twice');

  // Every acknowledged turn is in the memory, once, in order: through the gateway and from a node.
  for (const base of [gateway.base, survivor]) {
    const messages = await call('GET', `/_plugins/_ml/memory/${memory}/messages`, undefined, { base });
    assert.equal(messages.status, 200, messages.text);
    const turns = [...messages.json.messages].sort((a, b) => Date.parse(a.create_time) - Date.parse(b.create_time));
    assert.deepEqual(turns.map((m) => m.input), acknowledged, base);
    assert.ok(turns.every((m) => m.response === expected), base);
  }

  // Invalid input is still answered by the gateway, and the cluster never sees it.
  const refused = await execute('   ', memory);
  assert.equal(refused.status, 400, refused.text);
  assert.ok(refused.text.includes('empty_input'), refused.text);
  assert.equal(stub.take(MODEL).length, 0);
  const after = await viaGateway('GET', `/_plugins/_ml/memory/${memory}/messages`);
  assert.equal(after.json.messages.length, acknowledged.length);
});
