// The playground in headless Chromium, served by agent-gateway --upstream in front of a real
// ml-commons: its Deploy view's curl script registers an agent on the node, and Execute runs the
// playground's input on that agent through the proxy, the node calling the provider stub. A
// streamed Execute shows what the node's _execute/stream sends (this node has no stream
// transport: docs/ml-commons-node.md). An image input deployed with the view's defaults gets an
// agent type that takes it, and runs.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';

import { TEXT_INPUT, launchBrowser, openPlayground, setJson, settled, startGateway } from '../playground/support.mjs';
import { PROVIDERS, call, capturedResponse, startProviderStub, url } from './cluster.mjs';

const bedrock = PROVIDERS.find((p) => p.id === 'bedrock-converse');
const MODEL = 'playground-deploy';
const QUESTION = 'What is the capital of France?';

let stub;
let gateway;
let browser;
let page;
before(async () => {
  stub = await startProviderStub();
  gateway = await startGateway(['--upstream', url, '--quiet']);
  browser = await launchBrowser();
  ({ page } = await openPlayground(browser, gateway.base));
});
after(async () => {
  await browser?.close();
  await gateway?.stop();
  await stub?.stop();
});

test('the Deploy view registers an agent on the node, and Execute runs the input on it', async () => {
  await page.fill(TEXT_INPUT, QUESTION);
  await settled(page);

  // Deploy: the registration body with real values in place of the credential placeholders.
  await page.$eval('[data-testid="deploy"]', (d) => {
    d.open = true;
    d.dispatchEvent(new Event('toggle'));
  });
  await page.waitForSelector('[data-testid="deploy-body"]');
  await page.selectOption('[data-testid="deploy-version"]', '3.6');
  await page.selectOption('[data-testid="deploy-api"]', 'unified');
  const body = JSON.parse(await page.inputValue('[data-testid="deploy-body"]'));
  assert.equal(body.model.model_provider, bedrock.mlCommons, 'the default provider is Bedrock Converse');
  body.model.model_id = MODEL;
  body.model.credential = bedrock.credential;
  await page.fill('[data-testid="deploy-body"]', JSON.stringify(body));
  await page.waitForFunction((model) => document.querySelector('[data-testid="deploy-curl"]')?.textContent.includes(model), MODEL);
  const script = await page.textContent('[data-testid="deploy-curl"]');

  const run = spawnSync('bash', ['-c', script], { env: { ...process.env, OPENSEARCH_URL: url }, encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stderr}\n${run.stdout}`);
  const agent = run.stdout.trim().split('\n').at(-1);
  assert.equal((await call('GET', `/_plugins/_ml/agents/${agent}`)).json?.model?.model_id, MODEL);

  // Execute through the gateway that serves the page, which forwards to the node.
  await page.fill('[data-testid="agent-id-input"]', agent);
  if (await page.isChecked('[data-testid="stream-toggle"]')) await page.uncheck('[data-testid="stream-toggle"]');
  stub.take(MODEL);
  await page.click('[data-testid="execute-button"]');
  await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]', { timeout: 60_000 });
  const answer = await page.textContent('[data-testid="chat-answer"]');
  assert.equal(answer.trim(), capturedResponse(bedrock.capture).output.message.content[0].text);
  const sent = stub.take(MODEL);
  assert.equal(sent.length, 1);
  assert.deepEqual(JSON.parse(sent[0].body).messages, [{ role: 'user', content: [{ text: QUESTION }] }]);
});

test('a streamed Execute shows what the node streams back', async () => {
  await page.click('[data-testid="chat-new-conversation"]');
  await page.fill(TEXT_INPUT, QUESTION);
  await settled(page);
  await page.check('[data-testid="stream-toggle"]');
  const direct = await call('POST', `/_plugins/_ml/agents/${await page.inputValue('[data-testid="agent-id-input"]')}/_execute/stream`, { input: QUESTION });
  const reason = /"error": ?"([^"]+)/.exec(direct.text)?.[1];
  assert.ok(reason, `the node's streamed answer: ${direct.text}`);
  await page.click('[data-testid="execute-button"]');
  // The node's own words reach the conversation, whatever the view makes of the event.
  await page.waitForFunction((text) => document.querySelector('[data-testid="chat"]')?.textContent.includes(text), reason.slice(0, 60), {
    timeout: 60_000,
  });
});

test('an image input deployed with the defaults gets an agent type that takes it, and runs', async () => {
  await page.click('[data-testid="chat-new-conversation"]');
  if (await page.isChecked('[data-testid="stream-toggle"]')) await page.uncheck('[data-testid="stream-toggle"]');
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  await setJson(page, JSON.stringify({ input: [{ type: 'text', text: 'What is in this image?' }, { type: 'image', source: { type: 'base64', format: 'png', data: png } }] }));
  await settled(page);
  // The body was edited for the first agent: start again from the settings, on 3.6 with the
  // version's default API.
  if (await page.isVisible('[data-testid="deploy-rebuild"]')) await page.click('[data-testid="deploy-rebuild"]');
  await page.selectOption('[data-testid="deploy-version"]', '3.6');
  await page.selectOption('[data-testid="deploy-api"]', '');
  await page.waitForFunction(() => document.querySelector('[data-testid="deploy-type"]').value === 'ag_ui');
  assert.match(await page.textContent('[data-testid="deploy-type-why"]'), /^Picked ag_ui: the input has content blocks/);
  const body = JSON.parse(await page.inputValue('[data-testid="deploy-body"]'));
  assert.equal(body.type, 'ag_ui');
  body.model.model_id = `${MODEL}-image`;
  body.model.credential = bedrock.credential;
  await page.fill('[data-testid="deploy-body"]', JSON.stringify(body));
  await page.waitForFunction((model) => document.querySelector('[data-testid="deploy-curl"]')?.textContent.includes(model), `${MODEL}-image`);
  const run = spawnSync('bash', ['-c', await page.textContent('[data-testid="deploy-curl"]')], { env: { ...process.env, OPENSEARCH_URL: url }, encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stderr}\n${run.stdout}`);
  const agent = run.stdout.trim().split('\n').at(-1);
  assert.equal((await call('GET', `/_plugins/_ml/agents/${agent}`)).json?.type, 'ag_ui');

  await page.fill('[data-testid="agent-id-input"]', agent);
  stub.take(`${MODEL}-image`);
  await page.click('[data-testid="execute-button"]');
  await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]', { timeout: 60_000 });
  const [sent] = stub.take(`${MODEL}-image`);
  assert.deepEqual(JSON.parse(sent.body).messages.at(-1).content[1], { image: { format: 'png', source: { bytes: png } } });
});
