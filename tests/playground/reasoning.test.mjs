// Reasoning state in the playground, in headless Chromium against a real agent-gateway: an
// assistant message holding `reasoningState` shows a badge in the messages editor and under the
// chat's turn once sent, saying "sent back" while the chosen provider wrote it and "left out for
// <provider>" otherwise (the conversion's warning `reasoning_state_dropped`).
//
// Run: node --test tests/playground/reasoning.test.mjs   (after scripts/build-site and cargo build -p agent-gateway)

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { setJson, settled, showForm, startPlayground } from './support.mjs';

let playground;
let page;

before(async () => {
  playground = await startPlayground({ width: 1400 });
  ({ page } = playground);
});

after(() => playground?.close());

const badges = (scope) =>
  page.$$eval(`${scope} [data-testid="reasoning-state"]`, (items) =>
    items.map((b) => ({ provider: b.dataset.provider, sent: b.dataset.sent, text: b.textContent.trim() })),
  );

test('an assistant turn with reasoning state says whether the chosen provider gets it back', async () => {
  const body = {
    input: [
      { role: 'user', content: [{ type: 'text', text: 'Plan a trip.' }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Where to?' }],
        reasoningState: { provider: 'gemini', items: [{ on: 0, thoughtSignature: 'EvEBCu4BAdHtim8' }] },
      },
      { role: 'assistant', content: [{ type: 'text', text: 'No state here.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Lisbon.' }] },
    ],
  };
  await setJson(page, JSON.stringify(body));
  await page.selectOption('[data-testid="provider-select"]', 'gemini');
  await settled(page);
  await showForm(page, 'messages');
  const editor = '.form[data-form="messages"]';
  await page.waitForSelector(`${editor} [data-testid="reasoning-state"]`);
  assert.deepEqual(await badges(editor), [{ provider: 'gemini', sent: 'true', text: 'reasoning state · Gemini · sent back' }]);
  // The badge sits on the card of the message that holds the state.
  assert.equal(
    await page.$eval(`${editor} [data-testid="reasoning-state"]`, (b) => b.closest('[data-path]').dataset.path),
    '/input/1',
  );

  await page.selectOption('[data-testid="provider-select"]', 'anthropic-messages');
  await page.waitForSelector(`${editor} [data-testid="reasoning-state"][data-sent="false"]`);
  assert.deepEqual(await badges(editor), [
    { provider: 'gemini', sent: 'false', text: 'reasoning state · Gemini · left out for Anthropic Messages' },
  ]);
  // The conversion says the same: the state is dropped for another provider.
  await settled(page);
  const warnings = await page.$$eval('[data-code="reasoning_state_dropped"]', (items) => items.map((i) => i.dataset.path));
  assert.ok(warnings.includes('/input/1/reasoningState'), `warnings at ${warnings.join(', ')}`);

  // Sent: the chat's turn lists the earlier assistant message with its state.
  await page.click('[data-testid="execute-button"]');
  await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]', { timeout: 30_000 });
  const chat = '[data-testid="chat-user"]';
  assert.deepEqual(await badges(chat), [
    { provider: 'gemini', sent: 'false', text: 'reasoning state · Gemini · left out for Anthropic Messages' },
  ]);
  assert.equal(await page.$eval(`${chat} [data-testid="chat-reasoning-states"] li`, (li) => li.dataset.message), '2');
  await page.selectOption('[data-testid="provider-select"]', 'gemini');
  await page.waitForSelector(`${chat} [data-testid="reasoning-state"][data-sent="true"]`);
  assert.deepEqual(await badges(chat), [{ provider: 'gemini', sent: 'true', text: 'reasoning state · Gemini · sent back' }]);
});
