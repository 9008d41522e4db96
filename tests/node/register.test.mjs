// The entry `agent-input/register` from the packed package: `planRegistration`,
// `previewRegistration` and `predictMlCommons` against the same expectations as the core's tests/registration.rs and the
// CLI's register-plan tests (crates/agent-input/tests/data/registration/: connector fields from
// ml-commons' model providers at the commit each fixture names).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { pkg, projectDir } from './package.mjs';

const entry = join(projectDir, 'register-entry.mjs');
writeFileSync(entry, "export * from 'agent-input/register';\n");
const register = await import(pathToFileURL(entry).href);

const data = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'crates', 'agent-input', 'tests', 'data', 'registration');
const load = (name) => JSON.parse(readFileSync(join(data, name), 'utf8'));

/** `{code, path}` pairs, sorted, as the Rust tests compare them (as sets). */
const diagnostics = (list) => [...new Set((list ?? []).map((d) => `${d.code} ${d.path}`))].sort();

test('agent-input/register exports exactly its functions; the base entry none of them', () => {
  assert.deepEqual(Object.keys(register).sort(), ['planRegistration', 'predictMlCommons', 'previewRegistration']);
  for (const name of Object.keys(register)) assert.equal(pkg[name], undefined, `the base entry exports ${name}`);
});

const PLANS = readdirSync(data).filter((f) => f.endsWith('.json') && !['invalid.json', 'preview.json'].includes(f));

test('every plan fixture plans the calls ml-commons\' model providers make', () => {
  assert.ok(PLANS.length >= 7, `${PLANS.length} plan fixtures`);
  for (const name of PLANS) {
    const fixture = load(name);
    const options = { version: fixture.version, ...(fixture.api ? { api: fixture.api } : {}) };
    const plan = register.planRegistration(fixture.registration, options);
    assert.equal(plan.ok, true, `${name}: ${JSON.stringify(plan.errors)}`);
    assert.equal(plan.api, fixture.expect.api, name);
    assert.deepEqual(plan.steps, fixture.expect.steps, name);
    assert.deepEqual(diagnostics(plan.warnings), diagnostics(fixture.expect.warnings), name);
    assert.deepEqual(plan.errors, []);
    // As JSON text, the same plan.
    assert.deepEqual(register.planRegistration(JSON.stringify(fixture.registration), options), plan, name);
  }
});

test('ids are threaded by placeholders, and each step says what it returns', () => {
  const fixture = load('bedrock_legacy.json');
  const plan = register.planRegistration(fixture.registration, { version: fixture.version });
  assert.deepEqual(plan.steps.map((s) => [s.method, s.path, s.returns]), [
    ['POST', '/_plugins/_ml/connectors/_create', 'connector_id'],
    ['POST', '/_plugins/_ml/models/_register', 'model_id'],
    ['POST', '/_plugins/_ml/agents/_register', 'agent_id'],
  ]);
  assert.equal(plan.steps[1].body.connector_id, '{{connector_id}}');
  assert.equal(plan.steps[2].body.llm.model_id, '{{model_id}}');
});

test('the legacy calls until 3.8, the unified call from 3.9 (the default)', () => {
  const { registration } = load('gemini_legacy.json');
  for (const [version, api, steps] of [['3.5', 'legacy', 3], ['3.8', 'legacy', 3], ['3.9', 'unified', 1], ['4.0', 'unified', 1], [undefined, 'unified', 1]]) {
    const plan = register.planRegistration(registration, version ? { version } : undefined);
    assert.deepEqual([plan.api, plan.steps.length], [api, steps], String(version));
  }
});

test('every problem of the body is an error with its path, as the core reports it', () => {
  const fixture = load('invalid.json');
  for (const c of fixture.cases) {
    const plan = register.planRegistration(c.registration, { version: c.version, ...(c.api ? { api: c.api } : {}) });
    const errors = plan.ok ? [] : plan.errors;
    assert.deepEqual(diagnostics(errors), diagnostics(c.errors), `${c.name}: ${JSON.stringify(plan)}`);
    if (c.warnings) assert.deepEqual(diagnostics(plan.warnings), diagnostics(c.warnings), c.name);
    for (const expected of c.errors) {
      if (expected.message) assert.ok(errors.some((e) => e.message === expected.message), `${c.name}: no error says ${expected.message}`);
    }
    if (!plan.ok) assert.equal('steps' in plan, false);
  }
});

test('bad options are errors at /options/<key>; bad arguments throw', () => {
  const { registration } = load('unified.json');
  const plan = register.planRegistration(registration, { version: 'three', api: 'new' });
  assert.equal(plan.ok, false);
  assert.deepEqual(plan.errors.map((e) => [e.code, e.path]), [
    ['invalid_parameter', '/options/version'],
    ['invalid_parameter', '/options/api'],
  ]);
  assert.equal(register.planRegistration(registration, { version: 3.9 }).errors[0].path, '/options/version');
  assert.equal(register.planRegistration('{').errors[0].code, 'invalid_json');
  assert.equal(register.planRegistration(registration, { version: '3.9.1-SNAPSHOT' }).ok, true);
  assert.throws(() => register.planRegistration(undefined), TypeError);
  assert.throws(() => register.planRegistration(registration, 3), TypeError);
});

test('previewRegistration fills the template as ml-commons does', () => {
  const fixture = load('preview.json');
  for (const c of fixture.cases) {
    const preview = register.previewRegistration(c.registration, c.request);
    assert.equal(preview.question, c.expect.question, c.name);
    if ('payload' in c.expect) assert.equal(preview.payload, c.expect.payload, c.name);
    if ('body' in c.expect) assert.deepEqual(preview.body, c.expect.body, c.name);
    assert.deepEqual(diagnostics(preview.errors), diagnostics(c.expect.errors), `${c.name}: ${JSON.stringify(preview)}`);
    assert.deepEqual(diagnostics(preview.warnings), diagnostics(c.expect.warnings), c.name);
    assert.equal(preview.ok, preview.errors.length === 0);
    if (c.expect.message_contains) assert.ok(JSON.stringify(preview.errors).includes(c.expect.message_contains), c.name);
  }
  assert.equal(register.previewRegistration('{', {}).errors[0].path, '/registration');
});

test('predictMlCommons predicts what each agent type sends or refuses, per ml-commons version', () => {
  const image = { input: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', format: 'png', data: 'iVBORw0KGgo=' } }] };
  // What the 3.6 node sent Bedrock for a text (tests/opensearch): no inference settings.
  const text = register.predictMlCommons({ input: 'Hi / there' }, { provider: 'bedrock-converse', mlCommonsVersion: '3.6' });
  assert.deepEqual(text, { ok: true, parameters: { question: 'Hi / there', body: '{"role":"user","content":[{"text":"Hi \\/ there"}]}' }, errors: [], warnings: [] });
  // From 3.7 (ml-commons 12def21d1) the template adds 4096 tokens and temperature 1.0.
  for (const [provider, defaults] of [
    ['bedrock-converse', { inferenceConfig: { maxTokens: 4096, temperature: 1.0 } }],
    ['gemini/v1beta/generatecontent', { generationConfig: { maxOutputTokens: 4096, temperature: 1.0 } }],
    ['openai-chat', { max_completion_tokens: 4096, temperature: 1.0 }],
  ]) {
    for (const mlCommonsVersion of ['3.7', '3.8', '3.9', undefined]) {
      assert.deepEqual(register.predictMlCommons('{"input": "Hi"}', { provider, mlCommonsVersion }).parameters.defaults, defaults, `${provider} ${mlCommonsVersion}`);
    }
  }
  // A conversational agent takes text only; ag_ui and conversational_v2 take the image.
  for (const agentType of ['conversational', 'plan_execute_and_reflect', 'flow', 'conversational_flow']) {
    const refused = register.predictMlCommons(image, { provider: 'openai-chat', agentType });
    assert.equal(refused.ok, false);
    assert.deepEqual(refused.errors.map((e) => [e.code, e.path]), [['unsupported_by_agent_type', '/input']]);
    assert.match(refused.errors[0].message, /Found input type: CONTENT_BLOCKS".*ag_ui or conversational_v2/);
  }
  for (const agentType of ['ag_ui', 'conversational_v2']) assert.equal(register.predictMlCommons(image, { provider: 'openai-chat', agentType }).ok, true, agentType);
  // Bedrock refuses the S3 location ml-commons writes as a string (ml-commons issue 5036).
  const s3 = register.predictMlCommons({ input: [{ type: 'image', source: { type: 'url', format: 'png', data: 's3://bucket/a.png' } }] }, { provider: 'bedrock-converse', agentType: 'ag_ui' });
  assert.deepEqual(s3.warnings.map((w) => w.code), ['ml_commons_known_issue']);
  // Bad options are errors at their path.
  const bad = register.predictMlCommons('{"input": "Hi"}', { provider: 'x', agentType: 'chat', mlCommonsVersion: '3.5' });
  assert.deepEqual(bad.errors.map((e) => e.path), ['/options/provider', '/options/agentType', '/options/mlCommonsVersion']);
  assert.match(bad.errors[2].message, /use one of 3\.6, 3\.7, 3\.8, 3\.9$/);
  // ml-commons has no Anthropic provider.
  assert.equal(register.predictMlCommons('{"input": "Hi"}', { provider: 'anthropic-messages' }).errors[0].code, 'unsupported_by_provider');
});
