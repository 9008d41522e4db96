// The load and failover run of bench/cluster (its README says what it shows): concurrent
// conversations against a cluster of real ml-commons nodes, straight to the nodes and through
// agent-gateway, then through the gateway while a node is killed; every acknowledged turn read
// back from the memory. Prints one JSON summary on standard output.
//
// Environment: OPENSEARCH_URLS (the nodes), GATEWAY_URL, CONVERSATIONS (default 8), TURNS (turns
// per conversation, default 24), KILL_NODE (the node killed mid-run in the failover phase,
// default 2), and what tests/opensearch/cluster.mjs needs for the providers' stub.

import { spawn } from 'node:child_process';

import { PROVIDERS, call, repo, startProviderStub } from '../../tests/opensearch/cluster.mjs';

const urls = process.env.OPENSEARCH_URLS.split(',');
const gatewayUrl = process.env.GATEWAY_URL;
const conversations = Number(process.env.CONVERSATIONS ?? 8);
const turns = Number(process.env.TURNS ?? 24);
const killNode = Number(process.env.KILL_NODE ?? 2);
const TIMEOUT_MS = 60_000;
const openai = PROVIDERS.find((p) => p.id === 'openai-chat');

/** Registers the bench's agent through `base`. */
async function register(base) {
  const registered = await call(
    'POST',
    '/_plugins/_ml/agents/_register',
    {
      name: 'bench',
      type: 'conversational',
      model: { model_id: 'bench', model_provider: openai.mlCommons, credential: { openai_api_key: 'sk-test' } },
      memory: { type: 'conversation_index' },
    },
    { base, timeoutMs: TIMEOUT_MS },
  );
  if (registered.status !== 200) throw new Error(`register: ${registered.status} ${registered.text}`);
  return registered.json.agent_id;
}

/**
 * One phase: `conversations` conversations of `turns` turns each, side by side; each turn goes to
 * `base(k)` for the k-th request sent. `midway()` runs once half the turns are answered.
 */
async function phase(name, agent, base, midway) {
  const total = conversations * turns;
  const results = [];
  let done = 0;
  let midwayRun;
  const started = performance.now();
  async function conversation(c) {
    let memory;
    const sent = [];
    for (let t = 0; t < turns; t += 1) {
      const input = `${name} conversation ${c} turn ${t}`;
      const body = memory ? { input, parameters: { memory_id: memory } } : { input };
      const begin = performance.now();
      let answer;
      try {
        answer = await call('POST', `/_plugins/_ml/agents/${agent}/_execute`, body, { base: base(results.length), timeoutMs: TIMEOUT_MS });
      } catch (error) {
        // The connection broke with no answer (straight to a node that was killed).
        answer = { status: 'no answer', text: String(error.cause?.code ?? error.message), json: null };
      }
      const ms = performance.now() - begin;
      results.push({ status: answer.status, ms, error: answer.status === 200 ? undefined : errorOf(answer) });
      if (answer.status === 200) {
        memory ??= answer.json.inference_results[0].output.find((o) => o.name === 'memory_id').result;
        sent.push(input);
      }
      // A conversation whose first turn failed has no memory yet: its next turn starts one.
      done += 1;
      if (midway && !midwayRun && done >= total / 2) midwayRun = midway();
    }
    return { memory, acknowledged: sent };
  }
  const all = await Promise.all(Array.from({ length: conversations }, (_, c) => conversation(c)));
  const seconds = (performance.now() - started) / 1000;
  await midwayRun;
  const answered = results.filter((r) => r.status === 200);
  const latencies = answered.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]) : null);
  const errors = {};
  const samples = {};
  for (const r of results) {
    if (r.status === 200) continue;
    errors[r.status] = (errors[r.status] ?? 0) + 1;
    samples[r.status] ??= r.error;
  }
  return {
    phase: name,
    requests: results.length,
    seconds: Number(seconds.toFixed(1)),
    throughput_per_s: Number((results.length / seconds).toFixed(2)),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    answered_share: Number((answered.length / results.length).toFixed(4)),
    errors_by_status: errors,
    error_samples: samples,
    conversations: all,
  };
}

/** An error answer in a few words: its OpenSearch error type and reason, cut. */
function errorOf(answer) {
  const error = answer.json?.error;
  const text = error ? `${error.type}: ${error.reason}` : answer.text;
  return String(text).slice(0, 240);
}

/** Every acknowledged turn of every conversation, read back through `base`: what is missing. */
async function readBack(result, base) {
  let checked = 0;
  const missing = [];
  let extra = 0;
  for (const { memory, acknowledged } of result.conversations) {
    if (!memory) continue;
    const messages = await call('GET', `/_plugins/_ml/memory/${memory}/messages?max_results=1000`, undefined, { base, timeoutMs: TIMEOUT_MS });
    const stored = messages.status === 200 ? messages.json.messages.map((m) => m.input) : [];
    for (const input of acknowledged) {
      checked += 1;
      if (stored.filter((s) => s === input).length !== 1) missing.push(input);
    }
    // Turns the gateway answered with an error that the cluster had run all the same.
    extra += stored.filter((s) => !acknowledged.includes(s)).length;
  }
  return { acknowledged_turns_checked: checked, missing, stored_but_not_acknowledged: extra };
}

function killMidway() {
  return new Promise((resolve) => {
    const child = spawn('bash', ['scripts/opensearch', 'kill-node', String(killNode)], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => resolve(code));
  });
}

const stub = await startProviderStub();
try {
  const straightAgent = await register(urls[0]);
  const gatewayAgent = await register(gatewayUrl);
  // Unmeasured: the nodes' JIT and caches warm, so that the first measured phase is not the slower
  // for it.
  await phase('warm-up', straightAgent, (k) => urls[k % urls.length]);
  const straight = await phase('straight', straightAgent, (k) => urls[k % urls.length]);
  const through = await phase('gateway', gatewayAgent, () => gatewayUrl);
  const failover = await phase('gateway, node killed', gatewayAgent, () => gatewayUrl, killMidway);
  const survivor = urls.find((_, i) => i + 1 !== killNode);
  const summary = {
    nodes: urls.length,
    conversations,
    turns,
    killed_node: killNode,
    gateway_cost: {
      throughput_ratio: Number((through.throughput_per_s / straight.throughput_per_s).toFixed(3)),
      p50_ratio: Number((through.p50_ms / straight.p50_ms).toFixed(3)),
      p99_ratio: Number((through.p99_ms / straight.p99_ms).toFixed(3)),
    },
    phases: [straight, through, failover].map(({ conversations: _, ...figures }) => figures),
    read_back: { through_gateway: await readBack(failover, gatewayUrl), from_a_surviving_node: await readBack(failover, survivor) },
  };
  console.log(JSON.stringify(summary, null, 2));
} finally {
  await stub.stop();
}
