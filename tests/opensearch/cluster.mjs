// What the tests against a real OpenSearch node share: the node's URL (tests/opensearch/run starts
// the node and sets OPENSEARCH_URL), a TLS stub on 127.0.0.1:443 that answers the node's own calls
// to Bedrock, OpenAI and Gemini with real captured responses, agents registered on the node, and
// the CLI's predictions of what ml-commons sends.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadAll, subject } from '../node/support.mjs';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const url = process.env.OPENSEARCH_URL;
if (!url) throw new Error('OPENSEARCH_URL is not set: run these tests through bash tests/opensearch/run');

/**
 * The three providers ml-commons has: our id, its name, the host it calls, the captured answer,
 * and a registration's stand-in credential.
 */
export const PROVIDERS = [
  {
    id: 'bedrock-converse',
    mlCommons: 'bedrock/converse',
    host: 'bedrock-runtime.us-east-1.amazonaws.com',
    capture: 'bedrock',
    credential: { access_key: 'AKIDEXAMPLE', secret_key: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
  },
  { id: 'openai-chat', mlCommons: 'openai/v1/chat/completions', host: 'api.openai.com', capture: 'chat-completions', credential: { openai_api_key: 'sk-test' } },
  { id: 'gemini', mlCommons: 'gemini/v1beta/generatecontent', host: 'generativelanguage.googleapis.com', capture: 'google', credential: { gemini_api_key: 'test-key' } },
];

/** Larger requests are left to the other layers: the test node's 1 GB heap trips its circuit breaker. */
export const MAX_REQUEST_BYTES = 1 << 20;

/**
 * One call to the node (or to `base`, a gateway in front of it): `{status, text, json}` (json
 * null when the answer is not JSON); status 0 when no answer came within `timeoutMs`.
 */
export async function call(method, path, body, { timeoutMs = 30_000, base = url } = {}) {
  let response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      signal: AbortSignal.timeout(timeoutMs),
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  } catch (error) {
    if (error.name === 'TimeoutError') return { status: 0, text: `no answer within ${timeoutMs} ms`, json: null };
    throw error;
  }
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, text, json };
}

/** A captured real response body of the lingua corpus (tests/captures). */
export function capturedResponse(capture, name = 'simpleRequest') {
  const body = JSON.parse(readFileSync(join(repo, 'tests', 'captures', name, capture, 'response.json'), 'utf8'));
  // The AWS SDK adds `$metadata` to what it read; the wire body has none.
  delete body.$metadata;
  return body;
}

/**
 * The providers' stand-in: HTTPS on 127.0.0.1:443 with the certificate that tests/opensearch/run
 * made from the CA the node trusts. Every request is recorded with its raw body; each answer is
 * the provider's captured response, or what `answer(provider, request)` returns.
 */
export async function startProviderStub({ answer } = {}) {
  const key = readFileSync(process.env.PROVIDER_TLS_KEY);
  const cert = readFileSync(process.env.PROVIDER_TLS_CERT);
  const requests = [];
  const server = createServer({ key, cert }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const provider = PROVIDERS.find((p) => req.headers.host?.split(':')[0] === p.host);
      const body = Buffer.concat(chunks).toString('utf8');
      const request = { provider: provider?.id, model: modelOf(req.url, body), method: req.method, path: req.url, headers: req.headers, body };
      requests.push(request);
      const custom = answer?.(provider, request);
      const reply = custom ?? (provider ? capturedResponse(provider.capture) : { message: 'unknown host' });
      res.writeHead(provider ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(443, '127.0.0.1', ok);
  });
  return {
    requests,
    /** The requests for `model` (all when absent) recorded since the last call, which are then forgotten. */
    take(model) {
      const taken = requests.filter((r) => model === undefined || r.model === model);
      for (const r of taken) requests.splice(requests.indexOf(r), 1);
      return taken;
    },
    stop: () => new Promise((ok) => server.close(ok)),
  };
}

/** The model a provider call is for: in Bedrock's and Gemini's path, in OpenAI's body. */
function modelOf(path, body) {
  const inPath = /\/models?\/([^/:]+)/.exec(path);
  if (inPath) return decodeURIComponent(inPath[1]);
  try {
    return JSON.parse(body).model;
  } catch {
    return undefined;
  }
}

let container;
/** The agentic memory container `conversational_v2` agents need, made once. */
export async function memoryContainer() {
  if (container) return container;
  const made = await call('POST', '/_plugins/_ml/memory_containers/_create', { name: 'agent-input tests' });
  if (made.status !== 200) throw new Error(`memory container: ${made.status} ${made.text}`);
  container = made.json.memory_container_id;
  return container;
}

/**
 * Registers an agent of `type` for `provider` (one of PROVIDERS) through the unified API, for the
 * model `modelId` (the stub tells calls apart by it), and returns its id. `conversational_v2`
 * gets agentic memory; `extra` is added to the body as given.
 */
export async function registerAgent(provider, type, extra = {}, modelId = 'test-model') {
  const body = {
    name: `${type} ${provider.id}`,
    type,
    model: { model_id: modelId, model_provider: provider.mlCommons, credential: provider.credential },
    ...extra,
  };
  if (type === 'conversational_v2') body.memory = { type: 'agentic_memory', memory_container_id: await memoryContainer() };
  const registered = await call('POST', '/_plugins/_ml/agents/_register', body);
  if (registered.status !== 200 || !registered.json?.agent_id) {
    throw new Error(`registering ${type} for ${provider.id}: ${registered.status} ${registered.text}`);
  }
  return registered.json.agent_id;
}

/** The built `agent-input` binary. */
export function cliBinary() {
  const found = [process.env.AGENT_INPUT_BIN, join(repo, 'target', 'debug', 'agent-input')].filter(Boolean).find((c) => existsSync(c));
  if (!found) throw new Error('no agent-input binary: cargo build -p agent-input-cli');
  return found;
}

/** Runs the CLI with `args` and `stdin`; `{status, stdout, stderr}`. */
export function cli(args, stdin = '') {
  const run = spawnSync(cliBinary(), args, { input: stdin, encoding: 'utf8', maxBuffer: 256 << 20 });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The ml-commons version of the node `scripts/opensearch` starts: the oracle for this version. */
export const NODE_VERSION = '3.6';

/**
 * What `agent-input convert --ml-commons` predicts ml-commons `version` (default the node's)
 * builds for `requestText` with an agent of `agentType`: `{ok, body: {question?, body,
 * no_escape_params?, defaults?}, errors, warnings}`.
 */
export function predict(requestText, provider, agentType, version = NODE_VERSION) {
  const args = ['convert', '--to', provider.id, '--ml-commons', '--ml-commons-version', version, '--agent-type', agentType, '--report', '--compact'];
  const run = cli(args, requestText);
  return JSON.parse(run.stdout);
}

/**
 * The conformance fixtures' execute requests (tests/fixtures), one entry per distinct request
 * text: `{text, cases: ["file/name", …], expect}` with the first case's expectation. Cases with
 * their own limits or an agent schema are left out (the node runs with its defaults and no
 * schema); `omitted` counts them.
 */
export function fixtureRequests() {
  const byText = new Map();
  let omitted = 0;
  for (const { file, name, case: c, exactRequest } of loadAll()) {
    if (c.limits || c.schema) {
      omitted += 1;
      continue;
    }
    const { kind, value, text: raw } = subject(c);
    // The request as the fixture writes it (numbers as written), or with generated payloads.
    const generated = kind === 'request' && JSON.stringify(c.request).includes('{{base64');
    const text = kind === 'raw' ? raw : kind === 'bare' ? JSON.stringify({ input: value }) : generated ? JSON.stringify(value) : exactRequest;
    const entry = byText.get(text) ?? { text, cases: [], expect: c.expect };
    entry.cases.push(`${file}/${name}`);
    byText.set(text, entry);
  }
  return { requests: [...byText.values()], omitted };
}
