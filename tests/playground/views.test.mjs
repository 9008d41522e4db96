// The playground's request-side views in Chromium against a real agent-gateway: "Compare
// providers" (every provider's body or errors for the input, checked against the provider
// fixtures), "Deploy to OpenSearch" (the registration plan for ml-commons 3.4 and 3.9, checked
// against the registration fixtures, and its copied curl script run against a stub cluster), and
// the conversion controls for tool choice, prompt caching and structured output (checked against
// the provider fixtures that use those options).
//
// Run: node --test tests/playground/views.test.mjs   (after scripts/build-site)

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { checkDiagnostics, loadAll, subject } from '../node/support.mjs';
import {
  SHORTEN_KEEP,
  checkShownBody,
  copied,
  repo,
  setJson,
  settingsFields,
  settled,
  shot,
  startPlayground,
} from './support.mjs';

let playground;
let page;
let seen;

before(async () => {
  playground = await startPlayground({ width: 1400 });
  ({ page, seen } = playground);
});

after(() => playground?.close());


/** Every column of the compare view: provider, state, body text, errors and warnings. */
function compareColumns() {
  return page.$$eval('[data-testid="compare-provider"]', (columns) => {
    const list = (root, testid) =>
      [...root.querySelectorAll(`[data-testid="${testid}"]`)].map((li) => {
        const d = { code: li.dataset.code, path: li.dataset.path, severity: li.dataset.severity };
        d.message = li.querySelector('.message')?.textContent;
        if (li.dataset.expected !== undefined) d.expected = JSON.parse(li.dataset.expected);
        if (li.dataset.received !== undefined) d.received = li.dataset.received;
        if (li.dataset.limit !== undefined) d.limit = Number(li.dataset.limit);
        if (li.dataset.actual !== undefined) d.actual = Number(li.dataset.actual);
        return d;
      });
    return columns.map((c) => ({
      provider: c.dataset.provider,
      state: c.dataset.state,
      body: c.querySelector('[data-testid="compare-body"]')?.textContent ?? null,
      errors: list(c, 'compare-error'),
      warnings: list(c, 'compare-warning'),
    }));
  });
}

describe('compare providers', () => {
  test('every provider shows its body or its errors, as the provider fixtures say', async () => {
    // The provider fixtures' cases without options, grouped by request: each group is one input
    // and what each provider the fixtures cover must show for it.
    const groups = new Map();
    for (const { file, name, case: c } of loadAll()) {
      if (!file.startsWith('providers-') || !('request' in c) || c.expect.valid !== true) continue;
      for (const [provider, entry] of Object.entries(c.expect.convert ?? {})) {
        if (entry.options && Object.keys(entry.options).length > 0) continue;
        const text = JSON.stringify(subject(c).value);
        if (!groups.has(text)) groups.set(text, {});
        groups.get(text)[provider] = { entry, id: `${file}/${name}` };
      }
    }
    // Those that several providers cover: the quickest way to see who takes what.
    const chosen = [...groups.entries()].filter(([, by]) => Object.keys(by).length >= 3);
    assert.ok(chosen.length >= 10, `only ${chosen.length} inputs with three or more providers in the fixtures`);

    await page.click('[data-testid="compare"] summary');
    const failures = [];
    let bodies = 0;
    let refusals = 0;
    for (const [text, by] of chosen) {
      await setJson(page, text);
      const columns = await compareColumns();
      assert.deepEqual(
        columns.map((c) => c.provider).sort(),
        await page.$$eval('[data-testid="provider-select"] option', (os) => os.map((o) => o.value).sort()),
        'one column per provider',
      );
      for (const column of columns) {
        // Every provider shows one or the other, whatever the fixtures say.
        if (column.state === 'converted' ? column.body === null : column.errors.length === 0) {
          failures.push(`${text.slice(0, 80)}: ${column.provider} shows neither a body nor errors`);
        }
        const want = by[column.provider];
        if (!want) continue;
        const out = [];
        if ('body' in want.entry) {
          bodies++;
          checkShownBody(want.entry, column.body, column.errors, out);
        } else {
          refusals++;
          if (column.body !== null) out.push('a body is shown but errors were expected');
        }
        checkDiagnostics('error', want.entry.errors, column.errors, out);
        checkDiagnostics('warning', want.entry.warnings, column.warnings, out);
        if (out.length) failures.push(`${want.id} (${column.provider}):\n  ${out.join('\n  ')}`);
      }
    }
    console.log(`# compare view: ${chosen.length} inputs, ${bodies} bodies and ${refusals} refusals compared with the fixtures`);
    assert.equal(failures.length, 0, failures.slice(0, 20).join('\n'));
    assert.ok(bodies > 20 && refusals > 5, `${bodies} bodies, ${refusals} refusals`);
    await shot(page, 'compare');
  });

  test('an invalid input says so, and media stay shortened in every column', async () => {
    await setJson(page, '{"input": ""}');
    assert.equal(await page.locator('[data-testid="compare-provider"]').count(), 0);
    assert.match(await page.textContent('[data-testid="compare-status"]'), /Fix the input's errors/);
    // 6 KB of PNG: every column that takes it shows it shortened (the OpenAI ones as data: URLs).
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(6000, 7)]);
    const data = png.toString('base64');
    await setJson(page, JSON.stringify({ input: [{ type: 'text', text: 'Describe' }, { type: 'image', source: { type: 'base64', format: 'png', data } }] }));
    const columns = await compareColumns();
    const converted = columns.filter((c) => c.state === 'converted');
    assert.equal(converted.length, 5, JSON.stringify(columns.map((c) => [c.provider, c.errors])));
    for (const c of converted) {
      assert.ok(!c.body.includes(data), `${c.provider} shows the whole payload`);
      assert.ok(c.body.includes(`${data.slice(0, SHORTEN_KEEP)}… [${data.length} base64 characters]`), c.provider);
    }
    // Closed, the view costs nothing: no columns are computed.
    await page.click('[data-testid="compare"] summary');
    await setJson(page, '{"input": "Hi"}');
    assert.equal(await page.locator('[data-testid="compare-provider"]').count(), 0);
  });
});

const registrationDir = join(repo, 'crates', 'agent-input', 'tests', 'data', 'registration');
const registrationFixture = (name) => JSON.parse(readFileSync(join(registrationDir, `${name}.json`), 'utf8'));

/** Opens "Deploy to OpenSearch" and waits for its view (loaded with the planner the first time). */
async function openDeploy() {
  if (!(await page.$eval('[data-testid="deploy"]', (d) => d.open))) await page.click('[data-testid="deploy"] summary');
  await page.waitForSelector('[data-testid="deploy-version"]');
}

async function setDeploy(selector, value) {
  await page.$eval(
    selector,
    (el, v) => {
      el.value = v;
      el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
    },
    value,
  );
}

async function shownSteps() {
  return page.$$eval('[data-testid="deploy-step"]', (steps) =>
    steps.map((s) => ({
      method: s.dataset.method,
      path: s.dataset.path,
      body: JSON.parse(s.querySelector('[data-testid="deploy-step-body"]').textContent),
    })),
  );
}

/** A stub cluster on 127.0.0.1: records each call and answers with an id, as ml-commons does. */
async function stubCluster() {
  const calls = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      calls.push({ method: req.method, path: req.url, body: JSON.parse(body), auth: req.headers.authorization });
      const answers = {
        '/_plugins/_ml/connectors/_create': { connector_id: 'conn-1' },
        '/_plugins/_ml/models/_register': { task_id: 't-1', status: 'CREATED', model_id: 'model-1' },
        '/_plugins/_ml/agents/_register': { agent_id: 'agent-1' },
        '/_cluster/settings': { acknowledged: true },
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answers[req.url] ?? {}));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { calls, url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

function runScript(script, env) {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-script-'));
  const file = join(dir, 'register.sh');
  writeFileSync(file, script);
  return new Promise((resolve) => {
    const child = spawn('bash', [file], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

describe('deploy to OpenSearch', () => {
  for (const name of ['bedrock_legacy', 'unified', 'unified_by_type']) {
    test(`the plan for ${name} (ml-commons ${registrationFixture(name).version}) is the fixture's, copyable for Dev Tools and as curl`, async () => {
      const fixture = registrationFixture(name);
      await openDeploy();
      await setDeploy('[data-testid="deploy-version"]', fixture.version);
      await setDeploy('[data-testid="deploy-body"]', JSON.stringify(fixture.registration, null, 2));
      // The plan shown is this fixture's (the one before stays until the new one is made).
      await page.waitForFunction(
        ({ api, steps }) =>
          document.querySelector('[data-testid="deploy-status"]')?.dataset.api === api &&
          document.querySelectorAll('[data-testid="deploy-step"]').length === steps,
        { api: fixture.expect.api, steps: fixture.expect.steps.length },
      );
      const steps = await shownSteps();
      assert.deepEqual(
        steps,
        fixture.expect.steps.map(({ method, path, body }) => ({ method, path, body })),
      );
      const warnings = await page.$$eval('[data-testid="deploy-warning"]', (ls) => ls.map((l) => ({ code: l.dataset.code, path: l.dataset.path })));
      const out = [];
      checkDiagnostics('warning', fixture.expect.warnings, warnings, out);
      assert.deepEqual(out, []);

      // Dev Tools console text: each call as `METHOD path` and its body, the ids to paste named.
      const console = await copied(page, '[data-testid="deploy-copy-console"]');
      const blocks = console.split(/\n(?=(?:POST|PUT) )/).slice(1);
      assert.equal(blocks.length, fixture.expect.steps.length, console);
      fixture.expect.steps.forEach((step, i) => {
        const [line, ...rest] = blocks[i].split('\n');
        assert.equal(line, `${step.method} ${step.path}`);
        const json = rest.join('\n').split(/\n\n#/)[0];
        assert.deepEqual(JSON.parse(json), step.body);
      });
      if (fixture.expect.steps.length === 3) {
        assert.match(console, /# Replace "\{\{connector_id\}\}" with the connector_id returned above\.\n# 2\.\nPOST \/_plugins\/_ml\/models\/_register/);
        assert.match(console, /# Replace "\{\{model_id\}\}" with the model_id returned above\.\n# 3\.\nPOST \/_plugins\/_ml\/agents\/_register/);
      }

      // The curl script, run against a stub cluster: the calls arrive in order with the ids threaded.
      const script = await copied(page, '[data-testid="deploy-copy-curl"]');
      assert.equal(script, await page.textContent('[data-testid="deploy-curl"]'));
      const cluster = await stubCluster();
      try {
        const run = await runScript(script, { OPENSEARCH_URL: cluster.url, OPENSEARCH_AUTH: 'admin:secret' });
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stdout.trim(), 'agent-1');
        const expected = fixture.expect.steps.map(({ method, path, body }) => ({
          method,
          path,
          body: JSON.parse(JSON.stringify(body).replaceAll('"{{connector_id}}"', '"conn-1"').replaceAll('"{{model_id}}"', '"model-1"')),
          auth: `Basic ${Buffer.from('admin:secret').toString('base64')}`,
        }));
        assert.deepEqual(cluster.calls, expected);
      } finally {
        await cluster.close();
      }
      await shot(page, `deploy-${name}`);
    });
  }

  test('the registration body follows the conversion settings, and bad bodies list their problems', async () => {
    await openDeploy();
    // Offered only once the body is edited.
    if (await page.isVisible('[data-testid="deploy-rebuild"]')) await page.click('[data-testid="deploy-rebuild"]');
    assert.equal(await page.isVisible('[data-testid="deploy-rebuild"]'), false);
    await page.$eval('.settings', (d) => (d.open = true));
    await page.selectOption('[data-testid="provider-select"]', 'openai-chat');
    await page.fill('[data-testid="system-prompt"]', 'Be brief.');
    await page.fill('#max-tokens', '300');
    await setDeploy('[data-testid="deploy-version"]', '3.4');
    await page.waitForFunction(() => document.querySelector('[data-testid="deploy-body"]').value.includes('Be brief.'));
    const body = JSON.parse(await page.inputValue('[data-testid="deploy-body"]'));
    assert.equal(body.model.model_provider, 'openai/v1/chat/completions');
    assert.deepEqual(body.model.credential, { openai_api_key: '{{openai_api_key}}' });
    assert.deepEqual(body.model.model_parameters, { system_prompt: 'Be brief.', max_tokens: '300' });
    const steps = await shownSteps();
    assert.deepEqual(steps.map((s) => s.path), ['/_plugins/_ml/connectors/_create', '/_plugins/_ml/models/_register', '/_plugins/_ml/agents/_register']);
    // ml-commons' OpenAI provider: the connector's parameters carry the model and model_parameters.
    assert.equal(steps[0].body.parameters.model, body.model.model_id);
    assert.equal(steps[0].body.parameters.max_tokens, '300');
    assert.equal(steps[2].body.parameters._llm_interface, 'openai/v1/chat/completions');

    // A body with problems: each at its path, nothing to copy.
    await setDeploy('[data-testid="deploy-body"]', '{"name": "x", "model": {"model_id": "m", "model_provider": "nope"}}');
    await page.waitForSelector('[data-testid="deploy-error"]');
    const errors = await page.$$eval('[data-testid="deploy-error"]', (ls) => ls.map((l) => `${l.dataset.code} ${l.dataset.path}`));
    assert.ok(errors.includes('missing_field /type'), errors.join(', '));
    assert.ok(errors.includes('invalid_parameter /model/model_provider'), errors.join(', '));
    await page.click('[data-testid="deploy-copy-curl"]');
    await page.locator('.deploy [role="status"]', { hasText: 'Nothing to copy' }).waitFor();

    // The edited body is out of date once the provider changes; Rebuild stands out and starts again.
    assert.equal(await page.isVisible('[data-testid="deploy-stale"]'), false);
    await page.selectOption('[data-testid="provider-select"]', 'gemini');
    await page.waitForSelector('[data-testid="deploy-stale"]:not([hidden])');
    assert.match(await page.textContent('[data-testid="deploy-stale"]'), /^Out of date: the conversion settings changed/);
    assert.equal(await page.getAttribute('[data-testid="deploy-rebuild"]', 'class'), 'primary');
    await page.click('[data-testid="deploy-rebuild"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="deploy-body"]').value.includes('gemini'));
    assert.equal(await page.isVisible('[data-testid="deploy-stale"]'), false);

    // ml-commons' model block has no Anthropic provider.
    await page.selectOption('[data-testid="provider-select"]', 'anthropic-messages');
    await page.waitForSelector('[data-testid="deploy-unavailable"]');
    assert.match(await page.textContent('[data-testid="deploy-unavailable"]'), /no provider for Anthropic/);
    await page.selectOption('[data-testid="provider-select"]', 'bedrock-converse');
    assert.deepEqual(seen.errors, []);
  });

  test('the agent type is one the version registers, by default one that takes the input, saying why', async () => {
    await openDeploy();
    if (await page.isVisible('[data-testid="deploy-rebuild"]')) await page.click('[data-testid="deploy-rebuild"]');
    const offered = () => page.$$eval('[data-testid="deploy-type"] option', (os) => os.map((o) => o.value));
    const typeIs = (type) => page.waitForFunction((t) => document.querySelector('[data-testid="deploy-type"]').value === t, type);
    const bodyType = async () => JSON.parse(await page.inputValue('[data-testid="deploy-body"]')).type;
    const why = () => page.textContent('[data-testid="deploy-type-why"]');

    // A text: every type takes it; conversational is picked.
    await setJson(page, JSON.stringify({ input: 'What is OpenSearch?' }));
    await settled(page);
    await setDeploy('[data-testid="deploy-version"]', '3.9');
    await typeIs('conversational');
    assert.deepEqual(await offered(), ['flow', 'conversational', 'conversational_flow', 'plan_execute_and_reflect', 'ag_ui', 'conversational_v2']);
    assert.equal(await why(), 'Picked conversational: every agent type takes a text.');

    // An image: a conversational agent with a model block refuses it; ag_ui is picked, and planned.
    const image = { type: 'image', source: { type: 'base64', format: 'png', data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' } };
    await setJson(page, JSON.stringify({ input: [{ type: 'text', text: 'What is in this image?' }, image] }));
    await settled(page);
    await typeIs('ag_ui');
    assert.equal(await bodyType(), 'ag_ui');
    assert.match(await why(), /^Picked ag_ui: the input has content blocks, which a conversational agent with a `model` block refuses \(it takes text only\); ag_ui and conversational_v2 take text, content blocks and messages\.$/);
    // On 3.6 the unified API registers it (the legacy calls cannot): the setting, then the agent.
    await setDeploy('[data-testid="deploy-version"]', '3.6');
    await page.waitForFunction(() => document.querySelector('[data-testid="deploy-status"]')?.dataset.api === 'unified');
    assert.deepEqual((await shownSteps()).map((s) => s.path), ['/_cluster/settings', '/_plugins/_ml/agents/_register']);

    // The user's choice stands while the version registers it; conversational_v2 gets agentic memory.
    await setDeploy('[data-testid="deploy-type"]', 'conversational_v2');
    await page.waitForFunction(() => document.querySelector('[data-testid="deploy-body"]').value.includes('agentic_memory'));
    assert.equal(await page.isVisible('[data-testid="deploy-type-why"]'), false);
    // 3.5 has no conversational_v2: the pick for the input again, saying why.
    await setDeploy('[data-testid="deploy-version"]', '3.5');
    await typeIs('ag_ui');
    assert.ok(!(await offered()).includes('conversational_v2'));
    // Before the unified API no type takes an image through a model block: said so.
    await setDeploy('[data-testid="deploy-version"]', '3.4');
    await typeIs('conversational');
    assert.deepEqual(await offered(), ['conversational', 'plan_execute_and_reflect']);
    assert.match(await why(), /no agent type offered here takes content blocks/);
    await setDeploy('[data-testid="deploy-version"]', '3.9');
    await setJson(page, JSON.stringify({ input: 'What is OpenSearch?' }));
    await settled(page);
    await shot(page, 'deploy-agent-type');
    assert.deepEqual(seen.errors, []);
  });
});

/**
 * Sets a settings field as a person does (input or change event), hidden or not; `always`: typed
 * even when the field shows the value (the model field shows the provider's own model, which a
 * provider chosen just before may not have drawn yet).
 */
function setControl(selector, value, always = false) {
  return page.$eval(
    selector,
    (el, [v, always]) => {
      if (el.type === 'checkbox') {
        if (el.checked !== v) {
          el.checked = v;
          el.dispatchEvent(new Event('change', { bubbles: true }));
        }
      } else if (always || el.value !== v) {
        el.value = v;
        el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
      }
    },
    [value, always],
  );
}

/** The fixture cases whose options use the new controls, with what the controls must be set to. */
function controlCases() {
  const cases = [];
  const CONTROLLED = ['tool_choice', 'prompt_cache', 'response_format', 'reasoning'];
  for (const { file, name, case: c } of loadAll()) {
    if (!file.startsWith('providers-') || !('request' in c)) continue;
    for (const [provider, entry] of Object.entries(c.expect.convert ?? {})) {
      const options = entry.options ?? {};
      if (!Object.keys(options).some((k) => CONTROLLED.includes(k))) continue;
      const fields = settingsFields(options);
      if (fields) cases.push({ id: `${file}/${name} (${provider})`, c, provider, entry, fields });
    }
  }
  return cases;
}

describe('tool choice, prompt caching, reasoning and structured output controls', () => {
  test('the controls give the request bodies the provider fixtures give for those options', async () => {
    const cases = controlCases();
    assert.ok(cases.length >= 10, `only ${cases.length} provider fixture cases use tool_choice, prompt_cache or response_format (core support: branch core-features)`);
    await page.$eval('.settings', (d) => (d.open = true));
    const failures = [];
    const covered = new Set();
    for (const { id, c, provider, entry, fields } of cases) {
      for (const [selector, value, always = false] of [
        ['[data-testid="provider-select"]', provider],
        ['[data-testid="model"]', fields.model, true],
        ['[data-testid="system-prompt"]', fields.system],
        ['#max-tokens', fields.max_tokens],
        ['#temperature', fields.temperature],
        ['#top-p', fields.top_p],
        ['#stop-sequences', fields.stop_sequences],
        ['[data-testid="tools"]', fields.tools],
        ['[data-testid="provider-fields"]', fields.provider_fields],
        ['[data-testid="allow-prefill"]', fields.allow_prefill],
        ['[data-testid="tool-choice"]', fields.tool_choice],
        ['[data-testid="tool-choice-name"]', fields.tool_choice_name],
        ['[data-testid="prompt-cache"]', fields.prompt_cache],
        ['[data-testid="prompt-cache-ttl"]', fields.prompt_cache_ttl],
        ['[data-testid="response-schema"]', fields.response_schema],
        ['[data-testid="response-name"]', fields.response_name],
        ['[data-testid="reasoning"]', fields.reasoning],
        ['[data-testid="reasoning-budget"]', fields.reasoning_budget],
      ]) {
        await setControl(selector, value, always);
      }
      await setJson(page, JSON.stringify(subject(c).value));
      await settled(page);
      const out = [];
      const output = await page.textContent('[data-testid="converse-output"]');
      const read = (ls) => ls.map((l) => ({ code: l.dataset.code, path: l.dataset.path, message: l.querySelector('.message')?.textContent }));
      const errors = await page.$$eval('[data-testid="conversion-error"]', read);
      if ('body' in entry) {
        if (checkShownBody(entry, output, errors, out)) covered.add(provider);
      } else if (output !== '') out.push('a body is shown but errors were expected');
      checkDiagnostics('conversion error', entry.errors, errors, out);
      const warnings = await page.$$eval('[data-testid="conversion-warning"]', read);
      checkDiagnostics('conversion warning', entry.warnings, warnings, out);
      if (out.length) failures.push(`${id}:\n  ${out.join('\n  ')}`);
    }
    // Leave the settings as they were.
    const defaults = settingsFields({});
    for (const [selector, key] of [['[data-testid="tool-choice"]', 'tool_choice'], ['[data-testid="prompt-cache"]', 'prompt_cache'], ['[data-testid="response-schema"]', 'response_schema'], ['[data-testid="tools"]', 'tools'], ['[data-testid="provider-fields"]', 'provider_fields'], ['[data-testid="reasoning"]', 'reasoning'], ['[data-testid="model"]', 'model']]) {
      await setControl(selector, defaults[key]);
    }
    console.log(`# controls: ${cases.length} fixture cases through the tool choice, caching, reasoning and structured output controls; bodies for ${[...covered].join(', ')}`);
    assert.equal(failures.length, 0, failures.slice(0, 20).join('\n'));
    assert.equal(covered.size, 5, `bodies compared for ${[...covered]} only`);
  });
});
