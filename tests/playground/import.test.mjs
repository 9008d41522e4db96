// "Import a provider request" in headless Chromium against a real agent-gateway: the importers'
// module is fetched only when the view is first opened; a pasted OpenAI Chat request lands in the
// editor (the standard request) and the settings (model, system prompt, max tokens, temperature,
// stop sequences, tools, tool choice, reasoning, provider fields) and the provider becomes the
// request's own; what the standard input cannot carry is listed at its JSON Pointer into the
// pasted body, and the reasoning kept is named; a curl command gives its body and its provider
// from the URL.
//
// Run: node --test tests/playground/import.test.mjs   (after scripts/build-site and cargo build -p agent-gateway)

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { repo, settled, shortened, startPlayground } from './support.mjs';

let playground;
let page;
let seen;

before(async () => {
  playground = await startPlayground({ width: 1400 });
  ({ page, seen } = playground);
});

after(() => playground?.close());

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Pastes `text`, optionally picks the provider, imports, and waits for the status line. */
async function importText(text, provider = '') {
  await page.fill('[data-testid="import-text"]', text);
  await page.selectOption('[data-testid="import-provider"]', provider);
  const before = await page.textContent('[data-testid="import-status"]');
  await page.$eval('[data-testid="import-status"]', (el) => (el.textContent = ''));
  await page.click('[data-testid="import-button"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="import-status"]').textContent !== '');
  await settled(page);
  return before;
}

const problems = () =>
  page.$$eval('[data-testid="import-problem"]', (items) =>
    items.map((li) => ({ severity: li.dataset.severity, code: li.dataset.code, path: li.dataset.path })),
  );

/** The body the editor holds, read from its JSON view. */
async function editorBody() {
  await page.click('[data-testid="form-json"]');
  await page.waitForSelector('.json-area:not(.hidden)');
  return JSON.parse(await page.inputValue('[data-testid="json-editor"]'));
}

test('the importers are fetched when the view is first opened, not before', async () => {
  const fetched = () => seen.requests.filter((u) => u.includes('/import/agent_input_import'));
  assert.deepEqual(fetched(), []);
  await page.click('[data-testid="import"] summary');
  await page.waitForSelector('[data-testid="import-button"]');
  assert.equal(fetched().length, 2, fetched().join(', '));
});

test('an OpenAI Chat request lands in the editor and the settings, its losses listed by path', async () => {
  const body = {
    model: 'gpt-4o',
    max_tokens: 300,
    temperature: 0.2,
    stop: ['END'],
    messages: [
      { role: 'system', content: 'You describe pictures.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ],
    tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    tool_choice: 'auto',
  };
  await importText(JSON.stringify(body, null, 2));
  assert.match(await page.textContent('[data-testid="import-detected"]'), /OpenAI Chat Completions/);
  assert.match(await page.textContent('[data-testid="import-status"]'), /^Imported the OpenAI Chat Completions request/);
  // The body's `model` is carried into the options, not dropped: it fills the model field.
  assert.deepEqual(await problems(), []);
  assert.equal(await page.inputValue('[data-testid="model"]'), 'gpt-4o');

  const request = await editorBody();
  assert.deepEqual(request.input, [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', source: { type: 'base64', format: 'png', data: PNG } },
      ],
    },
  ]);
  assert.equal(await page.inputValue('[data-testid="system-prompt"]'), 'You describe pictures.');
  assert.equal(await page.inputValue('#max-tokens'), '300');
  assert.equal(await page.inputValue('#temperature'), '0.2');
  assert.equal(await page.inputValue('#stop-sequences'), 'END');
  assert.equal(JSON.parse(await page.inputValue('[data-testid="tools"]'))[0].name, 'get_weather');
  assert.equal(await page.inputValue('[data-testid="tool-choice"]'), 'auto');
  // The request converts for the chosen provider with those settings.
  const output = await page.textContent('[data-testid="converse-output"]');
  assert.match(output, /You describe pictures\./);
  assert.match(output, /get_weather/);
});

test('a loss is reported at its place in the pasted body', async () => {
  const body = {
    model: 'gpt-5',
    messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }, { type: 'text', text: 'Hi' }] }],
  };
  await importText(JSON.stringify(body));
  const listed = await problems();
  assert.ok(listed.some((p) => p.path === '/messages/0/content/0'), JSON.stringify(listed));
  assert.ok(!listed.some((p) => p.path === '/model'), JSON.stringify(listed));
});

test('a curl command gives its body, and its provider from the URL (the select overrides it)', async () => {
  const curl = [
    'curl https://api.anthropic.com/v1/messages \\',
    '  -H "x-api-key: $ANTHROPIC_API_KEY" \\',
    '  -H "content-type: application/json" \\',
    // A quote inside the single-quoted body written as the shell has it: '\''
    `  -d '${JSON.stringify({ model: 'claude-x', max_tokens: 512, system: 'Be brief.', messages: [{ role: 'user', content: "It's late." }] }).replaceAll("'", "'\\''")}'`,
  ].join('\n');
  await importText(curl);
  assert.match(await page.textContent('[data-testid="import-detected"]'), /Anthropic Messages \(from the curl command\)/);
  assert.match(await page.textContent('[data-testid="import-status"]'), /^Imported the Anthropic Messages request/);
  assert.equal(await page.inputValue('#max-tokens'), '512');
  assert.equal(await page.inputValue('[data-testid="system-prompt"]'), 'Be brief.');
  assert.deepEqual((await editorBody()).input, "It's late.");

  // Read as another provider's body, the same text is that provider's problems.
  await importText(curl, 'gemini');
  assert.match(await page.textContent('[data-testid="import-status"]'), /Gemini/);
  assert.ok((await problems()).some((p) => p.severity === 'error'), JSON.stringify(await problems()));
});

test("the providers offered are the module's, and a pasted curl command's URL names its provider", async () => {
  const offered = await page.$$eval('[data-testid="import-provider"] option', (options) => options.map((o) => [o.value, o.textContent]));
  assert.deepEqual(offered, [
    ['', 'Detect'],
    ['bedrock-converse', 'Bedrock Converse'],
    ['openai-chat', 'OpenAI Chat Completions'],
    ['openai-responses', 'OpenAI Responses'],
    ['anthropic-messages', 'Anthropic Messages'],
    ['gemini', 'Gemini'],
  ]);
  // Each provider's endpoint as its documentation writes it; the body, `{}`, names none.
  const urls = [
    ['https://api.openai.com/v1/chat/completions', 'OpenAI Chat Completions'],
    ['https://my-resource.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21', 'OpenAI Chat Completions'],
    ['https://api.openai.com/v1/responses', 'OpenAI Responses'],
    ['https://api.anthropic.com/v1/messages', 'Anthropic Messages'],
    ['https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', 'Gemini'],
    ['https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent', 'Gemini'],
    ['https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1:0/converse', 'Bedrock Converse'],
    ['https://bedrock-runtime.eu-central-1.amazonaws.com/model/eu.amazon.nova-lite-v1:0/converse-stream', 'Bedrock Converse'],
  ];
  for (const [url, name] of urls) {
    await page.fill('[data-testid="import-text"]', `curl "${url}" \\\n  -H "content-type: application/json" \\\n  -d '{}'`);
    assert.equal(await page.textContent('[data-testid="import-detected"]'), `Detected: ${name} (from the curl command)`, url);
  }
  await page.fill('[data-testid="import-text"]', "curl https://api.openai.com/v1/embeddings -d '{}'");
  assert.equal(await page.textContent('[data-testid="import-detected"]'), 'No provider detected: choose one.');
});

test("a pasted body's shape names its provider", async () => {
  const bodies = [
    [{ model: 'gpt-5', messages: [{ role: 'user', content: 'Hi' }] }, 'OpenAI Chat Completions'],
    [{ model: 'gpt-5', input: 'Hi' }, 'OpenAI Responses'],
    [{ model: 'claude-x', max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] }, 'Anthropic Messages'],
    [{ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }, 'Gemini'],
    [{ messages: [{ role: 'user', content: [{ text: 'Hi' }] }], inferenceConfig: { maxTokens: 64 } }, 'Bedrock Converse'],
  ];
  for (const [body, name] of bodies) {
    await page.fill('[data-testid="import-text"]', JSON.stringify(body));
    assert.equal(await page.textContent('[data-testid="import-detected"]'), `Detected: ${name} (from the body's shape)`);
  }
  // The same body through a curl command whose URL names no provider: the shape still does.
  await page.fill('[data-testid="import-text"]', `curl https://llm.example.com/v1/generate -d '${JSON.stringify(bodies[3][0])}'`);
  assert.equal(await page.textContent('[data-testid="import-detected"]'), "Detected: Gemini (from the body's shape)");
});

test('an Anthropic request with extended thinking switches the provider, keeps its budget and shows the thinking block it kept', async () => {
  // Lingua's captured Vertex AI follow-up: a thinking block with its signature, a 1024-token budget.
  const captured = JSON.parse(readFileSync(join(repo, 'tests/captures/thinkingSignatureRequest/vertex-anthropic/followup-request.json'), 'utf8'));
  await page.selectOption('[data-testid="provider-select"]', 'bedrock-converse');
  await importText(JSON.stringify(captured), 'anthropic-messages');
  assert.match(await page.textContent('[data-testid="import-status"]'), /the provider is now Anthropic Messages\.$/);
  assert.equal(await page.inputValue('[data-testid="provider-select"]'), 'anthropic-messages');
  // The budget is the reasoning setting, not a loss.
  assert.equal(await page.inputValue('[data-testid="reasoning"]'), 'budget');
  assert.equal(await page.inputValue('[data-testid="reasoning-budget"]'), String(captured.thinking.budget_tokens));
  assert.ok(!(await problems()).some((p) => p.path.startsWith('/thinking')), JSON.stringify(await problems()));
  // The thinking block is kept on the assistant message, and named.
  const kept = await page.$$eval('[data-testid="import-kept-item"]', (items) => items.map((li) => li.textContent));
  assert.deepEqual(kept, ['Message 2: 1 thinking block, sent back to Anthropic Messages only']);
  // And sent: the provider request carries the block's signature and the budget.
  await page.waitForFunction(() => document.querySelector('[data-testid="converse-output"]').textContent.includes('"thinking"'));
  const output = JSON.parse(await page.textContent('[data-testid="converse-output"]'));
  assert.deepEqual(output.thinking, captured.thinking);
  // The view shortens the long signature as it shortens base64.
  assert.deepEqual(output.messages[1].content[0], shortened(captured.messages[1].content[0]));
});
