// Every valid conformance fixture request executed on a real ml-commons, for each provider it has
// and both kinds of agent that take the standard input: what the node sends to the provider stub
// must be what `agent-input convert --ml-commons` predicts.
//
// - `ag_ui` agents (a V1 type with a `model` block) map the input by its form and extract the
//   question. Their `system_prompt` is `${parameters.question}`, so the question ml-commons
//   extracted arrives in the Bedrock and Gemini bodies' system text, where it is compared.
// - `conversational_v2` agents map every input as messages and extract no question.
//
// Where ml-commons is known to differ, the node's exact answer is asserted instead, so a fix in
// ml-commons shows up here: see KNOWN below and docs/ml-commons-node.md.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { MAX_REQUEST_BYTES, PROVIDERS, call, fixtureRequests, predict, registerAgent, startProviderStub } from './cluster.mjs';

const { requests, omitted } = fixtureRequests();
const valid = requests.filter((r) => r.expect.valid && r.text.length <= MAX_REQUEST_BYTES);
const large = requests.filter((r) => r.expect.valid && r.text.length > MAX_REQUEST_BYTES).length;

/** The messages of a provider body (Gemini calls them contents). */
const messagesOf = (provider, body) => (provider.id === 'gemini' ? body.contents : body.messages);
/** The system text of a provider body, where the probe puts the question. */
const systemOf = (provider, body) =>
  provider.id === 'gemini' ? body.systemInstruction?.parts?.[0]?.text : provider.id === 'bedrock-converse' ? body.system?.[0]?.text : undefined;

const errorDetails = (answer) => answer.json?.error?.details ?? answer.json?.error?.reason ?? answer.text;

let stub;
before(async () => {
  stub = await startProviderStub();
  console.log(
    `${valid.length} distinct valid requests; ${large} over ${MAX_REQUEST_BYTES} bytes and ${omitted} cases with their own limits or an agent schema are left to the other layers`,
  );
});
after(() => stub?.stop());

// The six agents run side by side; the stub tells their calls apart by model id.
describe('every valid request', { concurrency: true }, () => {
  for (const provider of PROVIDERS) {
    for (const type of ['ag_ui', 'conversational_v2']) {
      test(`${type} on ${provider.id} sends what agent-input predicts`, async () => {
        const model = `fixtures-${type}-${provider.id}`;
        const probe = type === 'ag_ui' ? { parameters: { system_prompt: '${parameters.question}' } } : {};
        const agent = await registerAgent(provider, type, probe, model);
        const problems = [];
        for (const request of valid) {
          const predicted = predict(request.text, provider, type === 'ag_ui' ? 'conversational' : 'conversational_v2');
          stub.take(model);
          const answer = await call('POST', `/_plugins/_ml/agents/${agent}/_execute`, request.text);
          const sent = stub.take(model);
          const problem = check({ provider, type, request, predicted, answer, sent });
          if (problem) problems.push(`${request.cases[0]}: ${problem}`);
        }
        assert.deepEqual(problems, [], `${problems.length} of ${valid.length} requests differ:\n${problems.slice(0, 25).join('\n')}`);
      });
    }
  }
});

/**
 * ml-commons' behaviours that make the node's answer differ from a plain "sent as predicted,
 * answered 200", each with the answer it gives. `when` sees the request, the prediction and the
 * agent; the first that applies decides.
 */
const KNOWN = [
  {
    // ml-commons issue 5036: text is substituted into the template, so a `${...}` in the input
    // is replaced or fails the call. Our validation warns (`template_placeholder`).
    name: 'placeholders in the text are substituted',
    when: ({ predicted }) => predicted.warnings.some((w) => w.code === 'template_placeholder'),
    check: () => null,
  },
  {
    // A parameter whose value is itself JSON (an object or array) goes into the template
    // unescaped, so the question probe breaks the body when the question is JSON text.
    name: 'a JSON question goes in unescaped',
    when: ({ type, provider, predicted }) => type === 'ag_ui' && provider.id !== 'openai-chat' && predicted.ok && isJsonStructure(predicted.body.question),
    check: ({ answer, sent }) =>
      answer.status === 400 && String(errorDetails(answer)).startsWith('Invalid payload') && sent.length === 0
        ? null
        : `expected ml-commons' "Invalid payload" for a JSON question, got ${answer.status} ${answer.text.slice(0, 200)}`,
  },
  {
    // A conversational_v2 agent cannot run the legacy `parameters.question`: the executor never
    // gives its runner the memory (MLAgentExecutor returns early for V2 before mapping it).
    name: 'V2 agents fail the legacy question',
    when: ({ type, request }) => type === 'conversational_v2' && !bodyOf(request).input,
    check: ({ answer, sent }) =>
      answer.status === 500 && errorDetails(answer) === 'V2 agents require executor-provided memory. Use runV2() instead.' && sent.length === 0
        ? null
        : `expected ml-commons' 500 for the legacy question on a V2 agent, got ${answer.status} ${answer.text.slice(0, 200)}`,
  },
];

/** The request as a value (a byte order mark, which the validator allows, set aside). */
const bodyOf = (request) => JSON.parse(request.text.replace(/^\uFEFF/, ''));

function isJsonStructure(text) {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === 'object';
  } catch {
    return false;
  }
}

/** Why the node's handling of one request is not what we predict, or null. */
function check(c) {
  const { provider, type, request, predicted, answer, sent } = c;
  const known = KNOWN.find((k) => k.when(c));
  if (known) return known.check(c);
  if (!predicted.ok) {
    // ml-commons' provider refuses it: the node answers 400 with the message we quote.
    const quoted = predicted.errors.map((e) => e.message.split('fails here: ')[1]).find(Boolean);
    if (sent.length) return `predicted a refusal (${predicted.errors[0].message}), but the node called the provider`;
    if (answer.status !== 400 || errorDetails(answer) !== quoted) return `predicted 400 "${quoted}", got ${answer.status} ${answer.text.slice(0, 300)}`;
    return null;
  }
  if (sent.length !== 1) return `expected one provider call, got ${sent.length} (node answered ${answer.status} ${answer.text.slice(0, 300)})`;
  const { body: parameters } = predicted;
  const raw = sent[0].body;
  if (!raw.includes(parameters.body)) return `the provider body does not contain the predicted text\n  predicted ${parameters.body.slice(0, 300)}\n  sent      ${raw.slice(0, 400)}`;
  const body = JSON.parse(raw);
  const want = JSON.parse(`[${parameters.body}]`);
  // History the request's memory_id names comes first (the same memory across runs).
  const messages = messagesOf(provider, body);
  const ownMemory = !bodyOf(request).parameters?.memory_id;
  const got = ownMemory ? messages : messages.slice(messages.length - want.length);
  if (JSON.stringify(got) !== JSON.stringify(want)) return `messages differ\n  predicted ${JSON.stringify(want).slice(0, 300)}\n  sent      ${JSON.stringify(messages).slice(0, 300)}`;
  if (type === 'ag_ui' && systemOf(provider, body) !== undefined && systemOf(provider, body) !== parameters.question) {
    return `question ${JSON.stringify(systemOf(provider, body))}, predicted ${JSON.stringify(parameters.question)}`;
  }
  // Gemini's answer cannot be read back by a V2 agent (parseToUnifiedMessage is not implemented).
  if (type === 'conversational_v2' && provider.id === 'gemini') {
    return answer.status === 500 && errorDetails(answer) === 'parseToUnifiedMessage is not yet supported for Gemini model provider'
      ? null
      : `expected ml-commons' 500 for a Gemini answer to a V2 agent, got ${answer.status} ${answer.text.slice(0, 200)}`;
  }
  if (answer.status !== 200) return `the node answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  return null;
}
