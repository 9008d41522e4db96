// The playground's agent input schema editor and provider selector end to end:
// a real agent-gateway serves the built site on 127.0.0.1, Debian's headless Chromium drives it.
// Screenshots go to target/playground/.
//
// Run: node --test tests/playground/   (after scripts/build-site and cargo build -p agent-gateway)

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  diagnostics,
  launchBrowser,
  openPlayground,
  setJson,
  settled,
  shot,
  showForm,
  startGateway,
} from './support.mjs';

// The example schema (tests/fixtures/agent_schema.json's first cases).
const SEED_SCHEMA = {
  type: 'object',
  required: ['topic', 'format'],
  properties: {
    topic: { type: 'string', description: 'The main topic to write about' },
    format: { type: 'string', enum: ['summary', 'bullet_points', 'essay'], description: 'Output format' },
    max_words: { type: 'integer', minimum: 50, maximum: 2000 },
    draft: { type: 'boolean' },
    audience: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: false,
};

let gateway;
let browser;
let page;
let seen;

const summary = () => page.textContent('[data-testid="validation-summary"]');
const schemaRequests = () => seen.requests.filter((u) => u.includes('/schema/'));

/** Types a schema into the editor (an input event, as typing). */
async function setSchema(p, text) {
  await p.fill('[data-testid="schema-editor"]', text);
  await settled(p);
}

before(async () => {
  gateway = await startGateway();
  browser = await launchBrowser();
  ({ page, seen } = await openPlayground(browser, gateway.base));
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

describe('the schema editor', () => {
  test('loads the validator on demand; invalid JSON says where; Prettify; invalid_schema at the editor', async () => {
    assert.deepEqual(schemaRequests(), [], 'the schema module is not part of the first download');
    await page.click('.schema-editor summary');
    await page.check('[data-testid="schema-toggle"]');
    await page.waitForSelector('[data-testid="schema-status"][data-state="ready"]');
    assert.ok(schemaRequests().some((u) => u.endsWith('/schema/agent_input_schema_bg.wasm')), schemaRequests().join());
    // Loaded under the page's Content-Security-Policy, with no errors.
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(seen.errors, []);

    await setSchema(page, '{\n  "type": "object",\n  "properties": {\n    "n": {"type": "integer"},\n  }\n}');
    assert.match(await page.textContent('[data-testid="schema-error"]'), /not JSON: line 5, column 3/);
    assert.match(await summary(), /schema has errors/);
    await page.click('[data-testid="schema-prettify"]');
    assert.match(await page.textContent('[data-testid="schema-error"]'), /line 5/, 'Prettify keeps broken JSON and says why');

    await setSchema(page, '{"properties": {"max_words": {"type": "integr"}}, "required": "topic"}');
    await page.click('[data-testid="schema-prettify"]');
    const pretty = '{\n  "properties": {\n    "max_words": {\n      "type": "integr"\n    }\n  },\n  "required": "topic"\n}';
    await page.waitForFunction((text) => document.querySelector('[data-testid="schema-editor"]').value === text, pretty);
    await settled(page);
    const problems = await diagnostics(page, 'schema-problem');
    assert.deepEqual(problems.map((p) => `${p.code} ${p.path}`).sort(), ['invalid_schema /properties/max_words/type', 'invalid_schema /required']);
    assert.equal(await page.$eval('[data-testid="validation-summary"]', (el) => el.dataset.valid), 'false');
    await shot(page, 'schema-01-invalid-schema');
  });

  test('a form generated from the schema edits the parameters, with live violations and the formatted prompt', async () => {
    await setJson(page, JSON.stringify({ input: 'Create content about this topic.' }));
    await showForm(page, 'text');
    await setSchema(page, JSON.stringify(SEED_SCHEMA));
    await page.click('[data-testid="schema-prettify"]');
    await settled(page);
    const fields = await page.$$eval('[data-testid="schema-field"]', (els) =>
      els.map((el) => `${el.dataset.name}:${el.tagName.toLowerCase()}`),
    );
    assert.deepEqual(fields, ['topic:textarea', 'format:select', 'max_words:input', 'draft:select', 'audience:textarea']);
    const labels = await page.$$eval('.schema-form label', (els) => els.map((el) => el.textContent));
    assert.deepEqual(labels, ['topic *', 'format *', 'max_words (integer)', 'draft', 'audience (JSON)']);
    assert.match(await page.textContent('.schema-form'), /The main topic to write about/);

    // Required parameters missing: one schema_violation each, at the field.
    let errors = await diagnostics(page);
    assert.deepEqual(errors.map((d) => `${d.code} ${d.path}`).sort(), ['schema_violation /parameters/format', 'schema_violation /parameters/topic']);
    assert.match(await summary(), /^2 errors/);
    assert.match(await page.textContent('[data-testid="formatted-prompt-status"]'), /violations/);
    assert.equal(await page.getAttribute('[data-name="topic"]', 'aria-invalid'), 'true');

    await page.fill('[data-name="topic"]', 'AI Safety');
    await page.selectOption('[data-name="format"]', { label: 'summary' });
    await page.fill('[data-name="max_words"]', '10');
    await settled(page);
    errors = await diagnostics(page);
    assert.deepEqual(errors.map((d) => `${d.code} ${d.path}`), ['schema_violation /parameters/max_words']);
    const schemaPath = await page.$eval('[data-testid="validation-error"]', (li) => li.dataset.schemaPath);
    assert.equal(schemaPath, '/properties/max_words/minimum');
    // A click on the violation goes to the generated field.
    await page.click('[data-testid="validation-error"] button');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.name), 'max_words');
    await shot(page, 'schema-02-violation');

    await page.fill('[data-name="max_words"]', '200');
    await page.fill('[data-name="audience"]', '["engineers", "managers"]');
    await page.press('[data-name="audience"]', 'Tab');
    await settled(page);
    assert.match(await summary(), /^Valid input · TEXT/);
    assert.equal(
      await page.textContent('[data-testid="formatted-prompt"]'),
      '<inputs>\ntopic: AI Safety\nformat: summary\nmax_words: 200\naudience: ["engineers", "managers"]\n</inputs>\n\nCreate content about this topic.',
    );
    assert.ok(await page.$('[data-testid="output-schema-note"]'));
    await shot(page, 'schema-03-valid');

    // Two-way with the JSON editor.
    await showForm(page, 'json');
    const body = JSON.parse(await page.inputValue('[data-testid="json-editor"]'));
    assert.deepEqual(body.parameters, { topic: 'AI Safety', format: 'summary', max_words: 200, audience: ['engineers', 'managers'] });
    body.parameters.format = 'essay';
    body.parameters.draft = true;
    await setJson(page, JSON.stringify(body));
    await showForm(page, 'text');
    assert.equal(await page.inputValue('[data-name="format"]'), '"essay"');
    assert.equal(await page.inputValue('[data-name="draft"]'), 'true');
    // A parameter the schema does not define stays in the parameters editor, and is a violation.
    await showForm(page, 'json');
    body.parameters.tone = 'dry';
    await setJson(page, JSON.stringify(body));
    errors = await diagnostics(page);
    assert.deepEqual(errors.map((d) => `${d.code} ${d.path}`), ['schema_violation /parameters/tone']);
    assert.equal(await page.$('[data-testid="formatted-prompt"]'), null);
    delete body.parameters.tone;
    await setJson(page, JSON.stringify(body));
    await showForm(page, 'text');
  });

  test('execute: the gateway checks the agent parameters_schema (400 with its list, then 200)', async () => {
    const response = await fetch(`${gateway.base}/_plugins/_ml/agents/_register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'parametric', type: 'conversational', parameters_schema: SEED_SCHEMA, model: { model_id: 'echo-1', model_provider: 'echo' } }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const agentId = (await response.json()).agent_id;
    await page.fill('[data-testid="agent-id-input"]', agentId);
    await page.uncheck('[data-testid="stream-toggle"]'); // _execute's answer (chat.test.mjs streams)
    await page.fill('[data-name="max_words"]', '5');
    await page.selectOption('[data-name="format"]', { label: '(not set)' });
    await settled(page);
    // The page holds Execute back for these violations; the gateway, sent the same body, agrees.
    assert.equal(await page.getAttribute('[data-testid="execute-button"]', 'aria-disabled'), 'true');
    await showForm(page, 'json');
    const sentBody = await page.inputValue('[data-testid="json-editor"]');
    await showForm(page, 'text');
    const sent = await fetch(`${gateway.base}/_plugins/_ml/agents/${agentId}/_execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: sentBody,
    });
    assert.equal(sent.status, 400);
    const gatewaySays = (await sent.json()).error.details.map((d) => ({ code: d.code, path: d.path }));
    const pageSays = await diagnostics(page);
    assert.deepEqual(gatewaySays.map((d) => `${d.code} ${d.path}`).sort(), pageSays.map((d) => `${d.code} ${d.path}`).sort());
    assert.deepEqual(gatewaySays.map((d) => d.path).sort(), ['/parameters/format', '/parameters/max_words']);
    await shot(page, 'schema-04-execute-400');

    await page.fill('[data-name="max_words"]', '300');
    await page.selectOption('[data-name="format"]', { label: 'essay' });
    await settled(page);
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]');
    await shot(page, 'schema-05-execute-200');
    await page.fill('[data-testid="agent-id-input"]', 'echo');
  });

  test('the schema persists in this browser and travels in share links', async () => {
    // The run above continued its conversation: the next turn is blank until typed.
    await page.fill('.form[data-form="text"] [data-path="/input"]', 'Create content about this topic.');
    await settled(page);
    const schema = await page.inputValue('[data-testid="schema-editor"]');
    await page.click('[data-testid="share-button"]');
    const link = await page.inputValue('[data-testid="share-link"]');
    // A fresh browser profile: only the link carries the schema.
    const fresh = await browser.newContext();
    const opened = await fresh.newPage();
    await opened.goto(link);
    await opened.waitForSelector('[data-testid="schema-status"][data-state="ready"]');
    await settled(opened);
    assert.equal(await opened.inputValue('[data-testid="schema-editor"]'), schema);
    assert.equal(await opened.isChecked('[data-testid="schema-toggle"]'), true);
    assert.ok(await opened.$('[data-testid="formatted-prompt"]'));
    await fresh.close();
    // The same profile, reloaded without a link: kept in localStorage.
    await page.goto(gateway.base);
    await page.waitForSelector('[data-testid="schema-status"][data-state="ready"]');
    await settled(page);
    assert.equal(await page.inputValue('[data-testid="schema-editor"]'), schema);
    await page.uncheck('[data-testid="schema-toggle"]');
    await settled(page);
    assert.equal(await page.$('[data-testid="schema-form"]'), null);
    assert.equal(await page.$('[data-testid="formatted-prompt"]'), null);
  });
});

describe('the provider selector', () => {
  test('shows each of the five providers request, titled by provider', async () => {
    await setJson(page, JSON.stringify({ input: [{ type: 'text', text: 'Describe this.' }] }));
    await page.$eval('.settings', (d) => (d.open = true));
    await page.fill('[data-testid="system-prompt"]', 'Be brief.');
    const providers = await page.$$eval('[data-testid="provider-select"] option', (os) => os.map((o) => [o.value, o.textContent]));
    assert.equal(providers.length, 5, JSON.stringify(providers));
    // Where each provider's wire format puts the user's text (notes/converse_and_peers.md).
    const text = {
      'bedrock-converse': (b) => b.messages[0].content[0].text,
      'anthropic-messages': (b) => b.messages[0].content[0].text,
      'openai-chat': (b) => b.messages.at(-1).content[0]?.text ?? b.messages.at(-1).content,
      'openai-responses': (b) => b.input.at(-1).content[0]?.text ?? b.input.at(-1).content,
      gemini: (b) => b.contents[0].parts[0].text,
    };
    for (const [value, name] of providers) {
      await page.selectOption('[data-testid="provider-select"]', value);
      await settled(page);
      const body = JSON.parse(await page.textContent('[data-testid="converse-output"]'));
      assert.ok(text[value], `no check for ${value}`);
      assert.equal(text[value](body), 'Describe this.', `${value}: ${JSON.stringify(body)}`);
      assert.match(JSON.stringify(body), /Be brief\./, `${value} carries the system prompt`);
      assert.equal(await page.textContent('[data-testid="output-provider"]'), name);
      await shot(page, `provider-${value}`);
    }
    await page.selectOption('[data-testid="provider-select"]', 'bedrock-converse');
    await page.fill('[data-testid="system-prompt"]', '');
  });
});
