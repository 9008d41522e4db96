// The browser playground (web/, built by scripts/build-site) end to end: a real agent-gateway
// serves it from 127.0.0.1, Debian's headless Chromium drives it. One test per numbered point of
// the issue, plus the security rules. Screenshots of the main states go to target/playground/.
//
// Run: node --test tests/playground/   (after scripts/build-site and cargo build -p agent-gateway)

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  TEXT_INPUT,
  copied,
  diagnostics,
  freePort,
  launchBrowser,
  openPlayground,
  repo,
  setJson,
  settled,
  shot,
  showForm,
  startGateway,
} from './support.mjs';

let gateway;
let browser;
let page;
let seen;
let files;

/** Real files, made by Chromium itself: a PNG and a JPEG screenshot, and a PDF. */
async function makeFiles() {
  const context = await browser.newContext({ viewport: { width: 64, height: 48 } });
  const p = await context.newPage();
  await p.setContent('<body style="margin:0;background:linear-gradient(90deg,#1d4ed8,#f59e0b)"><h1>hi</h1></body>');
  const png = await p.screenshot({ type: 'png' });
  const jpeg = await p.screenshot({ type: 'jpeg', quality: 80 });
  const pdf = await p.pdf({ width: '2in', height: '1in' });
  await context.close();
  return { png, jpeg, pdf };
}

async function register(body) {
  const response = await fetch(`${gateway.base}/_plugins/_ml/agents/_register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()).agent_id;
}

const summary = () => page.textContent('[data-testid="validation-summary"]');
const converse = async () => JSON.parse(await page.textContent('[data-testid="converse-output"]'));
const jsonBody = async () => {
  await showForm(page, 'json');
  return JSON.parse(await page.inputValue('[data-testid="json-editor"]'));
};

before(async () => {
  gateway = await startGateway();
  browser = await launchBrowser();
  files = await makeFiles();
  ({ page, seen } = await openPlayground(browser, gateway.base));
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

describe('the playground', () => {
  test('loads under its Content-Security-Policy with the offline defaults', async () => {
    assert.match(await summary(), /^Valid input · TEXT/);
    assert.equal(await page.inputValue('[data-testid="endpoint-input"]'), gateway.base);
    assert.equal(await page.inputValue('[data-testid="agent-id-input"]'), 'echo');
    const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.match(csp, /style-src 'self'/);
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(seen.errors, []);
    await shot(page, '01-initial');
  });

  test('user text is never HTML: no inner_html in the app, markup typed in stays text', async () => {
    // Every source file, the layer folders' too (web/src/{model,browser,state,view}).
    const src = join(repo, 'web', 'src');
    const files = readdirSync(src, { recursive: true }).filter((f) => /\.(rs|js)$/.test(f));
    assert.ok(files.some((f) => f.startsWith('view')), files.join(', '));
    const sources = files.map((f) => readFileSync(join(src, f), 'utf8'));
    assert.ok(sources.every((text) => !/inner_html|set_inner_html|insertAdjacentHTML/.test(text)));
    const markup = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
    await showForm(page, 'text');
    await page.fill(TEXT_INPUT, markup);
    await settled(page);
    await setJson(page, JSON.stringify({ input: [{ type: markup, text: markup }] }));
    assert.ok((await page.textContent('[data-testid="validation-errors"]')).includes('<img src=x'));
    assert.equal(await page.$('img[src="x"]'), null);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    await setJson(page, '{"input": "Hello"}');
    await showForm(page, 'text');
  });

  test('1. text input, switching forms without losing content', async () => {
    await showForm(page, 'text');
    await page.fill(TEXT_INPUT, 'What is in this picture?');
    await settled(page);
    assert.equal((await converse()).messages[0].content[0].text, 'What is in this picture?');
    await showForm(page, 'messages');
    assert.equal(await page.inputValue('[data-path="/input/0/content/0/text"]'), 'What is in this picture?');
    await showForm(page, 'blocks');
    assert.equal(await page.inputValue('[data-path="/input/0/text"]'), 'What is in this picture?');
    await showForm(page, 'legacy');
    assert.equal(await page.inputValue('[data-path="/parameters/question"]'), 'What is in this picture?');
    assert.deepEqual(await jsonBody(), { parameters: { question: 'What is in this picture?' } });
    await showForm(page, 'text');
    assert.deepEqual(await jsonBody(), { input: 'What is in this picture?' });
  });

  test('1. content blocks: a real PNG upload, JPEG and PDF files, drag and drop, paste, reorder, remove', async () => {
    await showForm(page, 'blocks');
    await page.setInputFiles('[data-testid="image-upload"]', { name: 'shot.png', mimeType: 'image/png', buffer: files.png });
    await page.waitForSelector('[data-path="/input/1/source/data"]');
    await settled(page);
    // Detected from the bytes; previewed from the file itself (blob:), never from a URL.
    assert.equal(await page.inputValue('[data-path="/input/1/source/format"]'), 'png');
    const preview = await page.getAttribute('[data-path="/input/1/source/data"] img', 'src');
    assert.match(preview, /^blob:/);
    assert.match(await page.textContent('[data-path="/input/1/source/data"] .size'), /B \(/);
    let body = await converse();
    assert.equal(body.messages[0].content[1].image.format, 'png');
    const expected = files.png.toString('base64');
    const shown = body.messages[0].content[1].image.source.bytes;
    assert.ok(expected.length <= 256 || shown === `${expected.slice(0, 48)}… [${expected.length} base64 characters]`, shown);
    assert.equal((await jsonBody()).input[1].source.data, expected);
    await showForm(page, 'blocks');

    // A JPEG (by MIME type "application/octet-stream": the bytes decide) and a PDF through the
    // general file input: document names as the Bedrock converter makes them.
    await page.setInputFiles('[data-testid="file-upload"]', [
      { name: 'photo', mimeType: 'application/octet-stream', buffer: files.jpeg },
      { name: 'Q3 report_final.pdf', mimeType: 'application/pdf', buffer: files.pdf },
    ]);
    await page.waitForSelector('[data-path="/input/3/source/data"]');
    await settled(page);
    assert.equal(await page.inputValue('[data-path="/input/2/source/format"]'), 'jpeg');
    assert.equal(await page.inputValue('[data-path="/input/3/source/format"]'), 'pdf');
    assert.equal(await page.inputValue('[data-path="/input/3/name"]'), 'Q3 report final');

    // Drag and drop onto the page.
    const dropped = await page.evaluateHandle((bytes) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], 'dropped.png', { type: 'image/png' }));
      return dt;
    }, [...files.png]);
    await page.dispatchEvent('body', 'dragover', { dataTransfer: dropped });
    await page.dispatchEvent('body', 'drop', { dataTransfer: dropped });
    await page.waitForSelector('[data-path="/input/4/source/data"]');
    // Paste an image from the clipboard.
    await page.evaluate((bytes) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], 'pasted.jpg', { type: 'image/jpeg' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
    }, [...files.jpeg]);
    await page.waitForSelector('[data-path="/input/5/source/data"]');
    await settled(page);
    assert.match(await summary(), /^Valid input · CONTENT_BLOCKS/);
    await shot(page, '02-content-blocks');

    // Reorder and remove.
    await page.click('[aria-label="Move block 6 up"]');
    await settled(page);
    body = await jsonBody();
    assert.deepEqual(body.input.map((b) => b.source?.format ?? b.type), ['text', 'png', 'jpeg', 'pdf', 'jpeg', 'png']);
    await showForm(page, 'blocks');
    for (const n of [6, 5, 4, 3, 2]) await page.click(`[aria-label="Remove block ${n}"]`);
    await settled(page);
    assert.deepEqual((await jsonBody()).input, [{ type: 'text', text: 'What is in this picture?' }]);
  });

  test('1. URL sources are accepted as https/http/s3 and never loaded', async () => {
    await showForm(page, 'blocks');
    await page.click('text=+ Image');
    const url = 'https://images.invalid/cat.png';
    await page.fill('[data-path="/input/1/source/data"]', url);
    // The block was added by "+ Image": its problems show once the field is left.
    await page.press('[data-path="/input/1/source/data"]', 'Tab');
    await settled(page);
    assert.match(await summary(), /url_not_supported|Valid|error/);
    assert.equal(await page.$(`img[src="${url}"]`), null);
    assert.equal(seen.requests.some((r) => r.includes('images.invalid')), false);
    const errors = await diagnostics(page, 'conversion-error');
    assert.ok(errors.some((d) => d.path === '/input/1/source/data'), JSON.stringify(errors));
    await page.fill('[data-path="/input/1/source/data"]', 'ftp://x/cat.png');
    await settled(page);
    assert.ok((await diagnostics(page)).some((d) => d.path === '/input/1/source/data' && d.severity === 'error'));
    await page.fill('[data-path="/input/1/source/data"]', 's3://pets/cat.png');
    await settled(page);
    assert.equal((await converse()).messages[0].content[1].image.source.s3Location.uri, 's3://pets/cat.png');
    await page.click('[aria-label="Remove block 2"]');
  });

  test('1. messages: roles, custom roles, tool calls and toolCallId, reorder', async () => {
    await showForm(page, 'messages');
    await page.click('text=+ Assistant');
    await page.fill('[data-path="/input/1/content/0/text"]', 'Let me check.');
    await page.click('text=+ Tool call');
    await page.fill('[data-path="/input/1/toolCalls/0/id"]', 'call-1');
    await page.fill('[data-path="/input/1/toolCalls/0/function/name"]', 'get_weather');
    await page.fill('[data-path="/input/1/toolCalls/0/function/arguments"]', '{"city": "Seattle"}');
    await page.click('text=+ Tool result');
    await page.fill('[data-path="/input/2/toolCallId"]', 'call-1');
    await page.fill('[data-path="/input/2/content/0/text"]', '72F');
    await page.$eval('.settings', (d) => (d.open = true));
    await page.fill('[data-testid="tools"]', '[{"name": "get_weather", "input_schema": {"type": "object"}}]');
    await settled(page);
    assert.match(await summary(), /^Valid input · MESSAGES/);
    const body = await converse();
    assert.deepEqual(body.messages[1].content[1], {
      toolUse: { toolUseId: 'call-1', name: 'get_weather', input: { city: 'Seattle' } },
    });
    assert.equal(body.messages[2].content[0].toolResult.toolUseId, 'call-1');
    await shot(page, '03-messages');

    // A custom role, then move it first: validation follows.
    await page.click('text=+ User');
    await page.selectOption('[data-path="/input/3/role"]', 'custom');
    await page.fill('input[data-path="/input/3/role"]', 'critic');
    await page.fill('[data-path="/input/3/content/0/text"]', 'Be strict.');
    await settled(page);
    // ml-commons wants the conversation to end with a user or tool message.
    assert.deepEqual(await diagnostics(page), [{ code: 'last_message_role', path: '/input/3/role', severity: 'error' }]);
    await page.click('[aria-label="Move message 4 up"]');
    await settled(page);
    assert.match(await summary(), /^Valid input · MESSAGES/);
    assert.equal((await jsonBody()).input[2].role, 'critic');
    await showForm(page, 'messages');
    await page.fill('[data-testid="tools"]', '');
    await page.click('[data-testid="example-select"]');
    await page.selectOption('[data-testid="example-select"]', { label: 'Text' });
  });

  test('1. raw JSON: two-way sync, and invalid JSON says where it breaks', async () => {
    await setJson(page, '{\n  "input": [\n    {"type": "text", "text": "from JSON"},\n  ]\n}');
    const errors = await diagnostics(page);
    assert.deepEqual(errors.map((d) => d.code), ['invalid_json']);
    assert.match(await page.textContent('[data-testid="json-error-at"]'), /line 4, column 3/);
    await page.click('[data-testid="validation-error"] button');
    const caret = await page.$eval('[data-testid="json-editor"]', (t) => [document.activeElement === t, t.selectionStart]);
    assert.deepEqual(caret, [true, '{\n  "input": [\n    {"type": "text", "text": "from JSON"},\n  '.length]);
    await shot(page, '04-invalid-json');
    // A body no form can show stays in the JSON editor, whole.
    await setJson(page, '{"input": 42}');
    await page.click('[data-testid="form-text"]');
    await page.locator('[data-testid="notice"]', { hasText: 'Cannot switch to Text' }).waitFor();
    assert.deepEqual(JSON.parse(await page.inputValue('[data-testid="json-editor"]')), { input: 42 });
    await setJson(page, '{\n  "input": [\n    {"type": "text", "text": "from JSON"},\n  ]\n}');
    // Switching away from broken JSON is refused, with the reason.
    await page.click('[data-testid="form-blocks"]');
    await page.locator('[data-testid="notice"]', { hasText: 'Fix the JSON first' }).waitFor();
    await setJson(page, '{"input": [{"type": "text", "text": "from JSON"}], "parameters": {"memory_id": "m-1"}}');
    await showForm(page, 'blocks');
    assert.equal(await page.inputValue('[data-path="/input/0/text"]'), 'from JSON');
    assert.equal(await page.inputValue('[data-path="/parameters/memory_id"]'), 'm-1');
    await page.fill('[data-path="/input/0/text"]', 'edited in the form');
    assert.deepEqual(await jsonBody(), { input: [{ type: 'text', text: 'edited in the form' }], parameters: { memory_id: 'm-1' } });
    await showForm(page, 'blocks');
    await page.click('[aria-label="Remove parameter memory_id"]');
    assert.deepEqual(await jsonBody(), { input: [{ type: 'text', text: 'edited in the form' }] });
  });

  test('1. legacy parameters.question and other parameters', async () => {
    await showForm(page, 'legacy');
    await page.fill('[data-path="/parameters/question"]', 'legacy?');
    await page.$eval('.parameters', (d) => (d.open = true));
    await page.fill('#new-parameter', 'verbose');
    await page.click('text=+ Parameter');
    await page.fill('[data-path="/parameters/verbose"]', 'true');
    await settled(page);
    assert.match(await summary(), /^Valid input · TEXT/);
    assert.equal(await page.textContent('[data-testid="question"]'), 'legacy?');
    assert.deepEqual(await jsonBody(), { parameters: { question: 'legacy?', verbose: 'true' } });
    await setJson(page, '{"input": "Hello"}');
  });

  test('2. live validation: codes and paths, the field highlighted, a click takes you there', async () => {
    await setJson(
      page,
      JSON.stringify({
        input: [
          { type: 'text', text: 'Describe' },
          { type: 'image', source: { type: 'base64', format: 'bmp', data: 'Qk0=' } },
          { type: 'audio', source: { type: 'url', data: 's3://a/b' } },
        ],
      }),
    );
    await showForm(page, 'blocks');
    await settled(page);
    const errors = await diagnostics(page);
    assert.deepEqual(
      errors.map((d) => `${d.code} ${d.path}`).sort(),
      ['unsupported_content_type /input/2/type', 'unsupported_format /input/1/source/format'].sort(),
    );
    await page.waitForSelector('input[data-path="/input/1/source/format"].has-error');
    await page.click('[data-testid="validation-error"][data-path="/input/1/source/format"] button');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.path), '/input/1/source/format');
    // An unknown block type has no form: its nearest field (the block as JSON) is marked.
    await page.click('[data-testid="validation-error"][data-path="/input/2/type"] button');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.path), '/input/2');
    await shot(page, '05-validation-errors');
    await page.fill('[data-path="/input/1/source/format"]', 'png');
    await settled(page);
    assert.deepEqual((await diagnostics(page)).map((d) => d.code), ['unsupported_content_type']);
    await setJson(page, '{"input": "Hello"}');
  });

  test('3. Converse request: system prompt and inference parameters, Copy copies it whole', async () => {
    const big = Buffer.alloc(300_000);
    files.png.copy(big);
    await setJson(page, JSON.stringify({ input: [{ type: 'text', text: 'Hi' }, { type: 'image', source: { type: 'base64', format: 'png', data: big.toString('base64') } }] }));
    await page.$eval('.settings', (d) => (d.open = true));
    await page.fill('[data-testid="system-prompt"]', 'Be brief.');
    await page.fill('#max-tokens', '512');
    await page.fill('#temperature', '0.2');
    await page.fill('#stop-sequences', 'END');
    await settled(page);
    const body = await converse();
    assert.deepEqual(body.system, [{ text: 'Be brief.' }]);
    assert.deepEqual(body.inferenceConfig, { maxTokens: 512, temperature: 0.2, stopSequences: ['END'] });
    assert.match(body.messages[0].content[1].image.source.bytes, /… \[400000 base64 characters\]$/);
    const whole = JSON.parse(await copied(page, '[data-testid="copy-body"]'));
    assert.equal(whole.messages[0].content[1].image.source.bytes, big.toString('base64'));
    // Back in the JSON editor the payload is a placeholder; the body keeps it whole.
    await showForm(page, 'blocks');
    await showForm(page, 'json');
    const editor = await page.inputValue('[data-testid="json-editor"]');
    assert.ok(editor.length < 2000 && editor.includes('⟪media 1: '), editor.slice(0, 400));
    const again = JSON.parse(await copied(page, '[data-testid="copy-body"]'));
    assert.equal(again.messages[0].content[1].image.source.bytes, big.toString('base64'));
    await page.fill('#temperature', 'hot');
    await settled(page);
    assert.deepEqual((await diagnostics(page, 'conversion-error')).map((d) => d.path), ['/options/temperature']);
    await shot(page, '06-converse');
    for (const id of ['#temperature', '#max-tokens', '#stop-sequences', '[data-testid="system-prompt"]']) await page.fill(id, '');
    await setJson(page, '{"input": "Hello"}');
  });

  test('3. Copy as curl: the execute request, credentials never inline', async () => {
    // These tests take the non-streaming path (_execute); chat.test.mjs covers streaming.
    await page.uncheck('[data-testid="stream-toggle"]');
    await openCode(page);
    const curl = await copied(page, '[data-testid="execute-code-curl"]');
    assert.ok(curl.startsWith(`curl -sS -X POST '${gateway.base}/_plugins/_ml/agents/echo/_execute'`), curl);
    assert.match(curl, /\n\{"input": ?"Hello"\}\nJSON\n$/);
  });

  test('4. execute round trip: the answer is a turn and the conversation continues in place', async () => {
    await showForm(page, 'text');
    await page.fill(TEXT_INPUT, 'Hello there');
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]');
    assert.match(await page.textContent('[data-testid="chat-answer"]'), /^echo: 1 message \(user\)/);
    // Not streamed, the turn's usage in words all the same: the echo model counts its tokens.
    assert.match(await page.textContent('[data-testid="chat-usage"]'), /^\d+ input tokens? · \d+ output tokens? · \d+\.\d\d s$/);
    // Not streamed, continued as a streamed run is: the memory id set, the input emptied, nothing red.
    const memoryId = await page.getAttribute('[data-testid="chat-assistant"]', 'data-thread');
    assert.ok(memoryId.length > 0);
    assert.equal(await page.inputValue('[data-path="/parameters/memory_id"]'), memoryId);
    assert.equal(await page.inputValue(TEXT_INPUT), '');
    await settled(page);
    assert.equal(await summary(), `Ready for the next turn (continuing conversation ${memoryId})`);
    assert.equal(await page.$('.has-error'), null);
    await shot(page, '07-execute');
    await page.fill(TEXT_INPUT, 'And again?');
    await page.click('[data-testid="execute-button"]');
    await page.waitForFunction(() => {
      const turns = document.querySelectorAll('[data-testid="chat-assistant"]');
      return turns.length === 2 && /3 messages/.test(turns[1].textContent);
    });
    assert.equal(await page.getAttribute('[data-testid="chat-assistant"]:nth-last-of-type(1)', 'data-thread'), memoryId);
    await page.click('[data-testid="chat-new-conversation"]');
    await page.waitForSelector('[data-path="/parameters/memory_id"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="chat-assistant"]', { state: 'detached' });
  });

  test('4. Execute is held back for a blank or invalid input, with the reason; a run tried shows the errors', async () => {
    await page.fill(TEXT_INPUT, '   ');
    await settled(page);
    assert.equal(await page.getAttribute('[data-testid="execute-button"]', 'aria-disabled'), 'true');
    assert.equal(await page.textContent('[data-testid="execute-status"]'), 'Fix 1 error to run.');
    const before = seen.requests.filter((r) => r.includes('_execute')).length;
    // aria-disabled, not disabled: it still takes the click (Playwright would wait for it to be enabled).
    await page.click('[data-testid="execute-button"]', { force: true });
    await page.waitForSelector('[data-testid="execute-status"]:has-text("Fix 1 error to run.")');
    assert.equal(seen.requests.filter((r) => r.includes('_execute')).length, before, 'nothing was sent');
    assert.equal(await page.$('[data-testid="chat-user"]'), null, 'no turn for what was not sent');
    await page.fill(TEXT_INPUT, 'Hello');
    await settled(page);
    assert.equal(await page.getAttribute('[data-testid="execute-button"]', 'aria-disabled'), 'false');
  });

  test('4. a refused run is a notice above the composer with its error list, not a turn', async () => {
    await page.fill('[data-testid="agent-id-input"]', 'no-such-agent');
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="run-notice"] [data-testid="execute-response"][data-status="404"]');
    assert.equal(await page.$('[data-testid="chat-user"]'), null);
    assert.equal(await page.inputValue(TEXT_INPUT), 'Hello', 'the input stays to send again');
    // Above the composer: the notice comes before the build pane.
    assert.ok(await page.$eval('[data-testid="run-notice"]', (n) => !!(n.compareDocumentPosition(document.querySelector('#build-title')) & Node.DOCUMENT_POSITION_FOLLOWING)));
    await shot(page, '08-execute-404');
    await page.fill('[data-testid="agent-id-input"]', 'echo');
  });

  test('4. a network failure and the CORS hint', async () => {
    const closed = await freePort();
    await page.fill('[data-testid="endpoint-input"]', `http://127.0.0.1:${closed}`);
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="run-notice"] [data-testid="execute-network-error"]');
    const text = await page.textContent('[data-testid="execute-network-error"]');
    assert.match(text, new RegExp(`Could not reach http://127.0.0.1:${closed}`));
    assert.match(text, /CORS/);
    assert.match(text, /--cors-origin/);
    await shot(page, '09-network-error');
    await page.fill('[data-testid="endpoint-input"]', gateway.base);
  });

  test('4. auth: a bearer token is sent, kept out of storage, links and logs unless remembered', async () => {
    const token = 'tok-s3cret-value';
    const guarded = await startGateway(['--bearer-token', token, '--cors-origin', gateway.base]);
    try {
      await page.fill('[data-testid="endpoint-input"]', guarded.base);
      await page.selectOption('[data-testid="auth-select"]', 'bearer');
      await page.fill('[data-testid="secret-input"]', 'wrong');
      await page.click('[data-testid="execute-button"]');
      await page.waitForSelector('[data-testid="run-notice"] [data-testid="execute-response"][data-status="401"]');
      await page.fill('[data-testid="secret-input"]', token);
      await page.click('[data-testid="execute-button"]');
      await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]');
      let stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
      assert.ok(stored.includes(guarded.base), stored);
      assert.ok(!stored.includes(token), 'the token was stored without "remember"');
      await page.click('[data-testid="share-button"]');
      const link = await page.inputValue('[data-testid="share-link"]');
      assert.ok(!link.includes(token) && !Buffer.from(link.split('#share=')[1], 'base64url').toString().includes(token));
      await openCode(page);
      const curl = await copied(page, '[data-testid="execute-code-curl"]');
      assert.match(curl, /AGENT_TOKEN/);
      assert.ok(!curl.includes(token));
      await page.check('[data-testid="remember-secret"]');
      stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
      assert.ok(stored.includes(token), 'remember keeps the token');
      await page.uncheck('[data-testid="remember-secret"]');
      stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
      assert.ok(!stored.includes(token));
      assert.ok(seen.console.every((line) => !line.includes(token)), seen.console.join('\n'));
      // Settings persist across reloads; the unremembered token does not.
      await page.reload();
      await settled(page);
      assert.equal(await page.inputValue('[data-testid="endpoint-input"]'), guarded.base);
      assert.equal(await page.inputValue('[data-testid="secret-input"]'), '');
    } finally {
      await page.selectOption('[data-testid="auth-select"]', 'none');
      await page.fill('[data-testid="endpoint-input"]', gateway.base);
      await guarded.stop();
    }
  });

  test('5. examples from the fixtures, and a share link without large media', async () => {
    const labels = await page.$$eval('[data-testid="example-select"] option', (o) => o.slice(1).map((x) => x.textContent));
    assert.ok(labels.length >= 8, labels.join());
    await page.selectOption('[data-testid="example-select"]', { label: 'Text and a base64 image' });
    await settled(page);
    assert.match(await summary(), /^Valid input · CONTENT_BLOCKS/);
    await page.selectOption('[data-testid="example-select"]', { label: 'a BMP image' });
    await settled(page);
    assert.deepEqual((await diagnostics(page)).map((d) => d.code), ['unsupported_format']);

    const big = Buffer.alloc(40_000);
    files.png.copy(big);
    await setJson(page, JSON.stringify({ input: [{ type: 'text', text: 'shared ✓' }, { type: 'image', source: { type: 'base64', format: 'png', data: big.toString('base64') } }] }));
    await page.$eval('.settings', (d) => (d.open = true));
    await page.fill('[data-testid="system-prompt"]', 'Shared prompt');
    await page.click('[data-testid="share-button"]');
    const link = await page.inputValue('[data-testid="share-link"]');
    assert.ok(link.length < 2000, `link is ${link.length} characters`);
    const opened = await page.context().newPage();
    await opened.goto(link);
    await opened.waitForSelector('[data-testid="share-note"]');
    await settled(opened);
    assert.match(await opened.textContent('[data-testid="share-note"]'), /1 large media payload/);
    assert.equal(await opened.inputValue('[data-testid="system-prompt"]'), 'Shared prompt');
    assert.equal(await opened.inputValue('[data-path="/input/0/text"]'), 'shared ✓');
    await shot(opened, '10-shared');
    await opened.close();
    await page.fill('[data-testid="system-prompt"]', '');
    await setJson(page, '{"input": "Hello"}');
  });

  test('6. labelled controls, keyboard use, and a phone-width layout', async () => {
    await showForm(page, 'blocks');
    const unlabelled = await page.$$eval('input, select, textarea', (els) =>
      els
        .filter((el) => el.type !== 'hidden' && !el.labels?.length && !el.getAttribute('aria-label'))
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    assert.deepEqual(unlabelled, []);
    // Keyboard: focus the text field, tab on, and execute with Enter on the button.
    await page.focus('[data-path="/input/0/text"]');
    await page.keyboard.type('!');
    await settled(page);
    assert.equal((await converse()).messages[0].content[0].text, 'Hello!');
    const turns = await page.$$eval('[data-testid="chat-assistant"]', (els) => els.length);
    await page.focus('[data-testid="execute-button"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="chat-assistant"][data-status="finished"]').length === n + 1, turns);

    const phone = await openPlayground(browser, gateway.base, { width: 390, height: 844 });
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390px`);
    await shot(phone.page, '11-phone');
    await phone.context.close();
  });
});

/** Opens the Execute call's "Copy as code" (its script fetched the first time). */
async function openCode(page) {
  await page.$eval('[data-testid="execute-code"]', (d) => (d.open = true));
  await page.waitForSelector('[data-testid="execute-code-curl"]', { state: 'visible' });
}
