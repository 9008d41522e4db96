// The playground as a chat, in Chromium against a real agent-gateway and its echo agent: the
// composer and Execute stay in view under the conversation however long it grows, each turn says
// its usage in words, the transcript comes back after a reload (read from the backend's memory),
// and a turn can be retried, edited or deleted.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { sendTurn as send, setJson, settled, shot, showForm, startPlayground, TEXT_INPUT } from './support.mjs';

const summary = (page) => page.textContent('[data-testid="validation-summary"]');
const tone = (page) => page.getAttribute('[data-testid="validation-summary"]', 'data-tone');
const said = (page) => page.$$eval('[data-testid="chat-user"] .said', (els) => els.map((e) => e.textContent));
const answers = (page) => page.$$eval('[data-testid="chat-assistant"]', (els) =>
  els.map((el) => [...el.querySelectorAll('[data-testid="chat-answer"]')].map((p) => p.textContent).join('')));

describe('the playground as a chat', () => {
  let playground;
  let page;

  before(async () => {
    playground = await startPlayground({ width: 1280, height: 800 });
    ({ page } = playground);
    await setJson(page, '{"input": "Hi"}');
    await showForm(page, 'text');
  });

  after(async () => {
    await playground?.close();
  });

  test('three turns: the composer and Execute stay in the window, the newest answer in view; usage in words', async () => {
    await send(page, 'Hello, first', 1);
    await send(page, 'Second turn with a longer question so the conversation grows taller than before', 2);
    await send(page, 'Third', 3);
    // The conversation scrolls to its newest turn in the frame after the turn is drawn: wait for
    // that state (a conversation that never scrolls times out here), then measure.
    await page.waitForFunction(() => {
      const chat = document.getElementById('conversation').getBoundingClientRect();
      const turns = document.querySelectorAll('[data-testid="chat-assistant"]');
      return turns[turns.length - 1].getBoundingClientRect().bottom <= chat.bottom + 1;
    });
    const at = await page.evaluate((composer) => {
      const rect = (el) => el.getBoundingClientRect();
      const chat = rect(document.getElementById('conversation'));
      const turns = document.querySelectorAll('[data-testid="chat-assistant"]');
      const newest = rect(turns[turns.length - 1]);
      return {
        height: window.innerHeight,
        composer: rect(document.querySelector(composer)).top,
        execute: rect(document.querySelector('[data-testid="execute-button"]')).bottom,
        newestBottom: newest.bottom,
        chatBottom: chat.bottom,
        chatTop: chat.top,
      };
    }, TEXT_INPUT);
    assert.ok(at.composer > 0 && at.composer < at.height - 60, `the composer starts at y=${at.composer} in a ${at.height}px window`);
    assert.ok(at.execute <= at.height && at.execute > at.composer, `Execute ends at y=${at.execute}`);
    assert.ok(at.newestBottom <= at.chatBottom + 1 && at.newestBottom > at.chatTop, JSON.stringify(at));
    // Usage per turn: the echo model counts tokens; the run's time.
    const usage = await page.$$eval('[data-testid="chat-usage"]', (els) => els.map((e) => e.textContent));
    assert.equal(usage.length, 3);
    for (const line of usage) assert.match(line, /^\d+ input tokens? · \d+ output tokens? · \d+\.\d\d s$/);
    await shot(page, 'conversation-01-three-turns');
  });

  test('after a reload the transcript comes back from the memory, and the next turn continues it', async () => {
    const before = { said: await said(page), answers: await answers(page) };
    const memory = await page.getAttribute('[data-testid="chat-assistant"]', 'data-thread');
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide')));
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-assistant"]').length === 3);
    await settled(page);
    assert.deepEqual(await said(page), before.said);
    assert.deepEqual(await answers(page), before.answers);
    assert.equal(await page.getAttribute('[data-testid="chat-assistant"]', 'data-thread'), memory);
    assert.equal(await summary(page), `Ready for the next turn (continuing conversation ${memory})`);
    assert.equal(await tone(page), 'waiting');
    assert.equal(await page.$('.has-error'), null);
    // The backend's memory holds six messages; the fourth turn adds to them.
    await send(page, 'Fourth', 4);
    assert.match((await answers(page))[3], /^echo: 7 messages \(4 user, 3 assistant\)/);
  });

  test('retry sends a turn again with the turns before it, in a new memory; edit loads it; delete carries on without it', async () => {
    await page.click('[data-testid="chat-new-conversation"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-assistant"]').length === 0);
    await showForm(page, 'text');
    await send(page, 'One', 1);
    await send(page, 'Two', 2);
    const memory = await page.getAttribute('[data-testid="chat-assistant"]', 'data-thread');
    // Retry the second turn: the first turn and its answer go with it, a new memory holds them.
    await page.locator('[data-testid="turn-retry"]').nth(1).click();
    await page.waitForFunction(() => {
      const turns = document.querySelectorAll('[data-testid="chat-assistant"]');
      return turns.length === 2 && turns[1].dataset.status === 'finished';
    });
    assert.deepEqual(await said(page), ['One', 'Two']);
    assert.match((await answers(page))[1], /^echo: 3 messages \(user, assistant, user\)/);
    const retried = await page.locator('[data-testid="chat-assistant"]').nth(1).getAttribute('data-thread');
    assert.notEqual(retried, memory);
    await settled(page);
    assert.match(await summary(page), /^Ready for the next turn/);
    // Delete the first turn: the second carries on alone, a blank message to type next, nothing red.
    await page.locator('[data-testid="turn-delete"]').first().click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-assistant"]').length === 1);
    await settled(page);
    assert.deepEqual(await said(page), ['Two']);
    assert.equal(await tone(page), 'waiting');
    assert.equal(await page.$('.has-error'), null);
    assert.equal(await page.inputValue('[data-path="/input/0/content/0/text"]'), 'Two');
    await page.fill('[data-path="/input/2/content/0/text"]', 'Three');
    await settled(page);
    await page.click('[data-testid="execute-button"]');
    await page.waitForFunction(() => {
      const turns = document.querySelectorAll('[data-testid="chat-assistant"]');
      return turns.length === 2 && turns[1].dataset.status === 'finished';
    });
    assert.deepEqual(await said(page), ['Two', 'Three']);
    assert.match((await answers(page))[1], /^echo: 3 messages \(user, assistant, user\)/);
    // Edit the second turn: the transcript goes back to before it, the messages in the composer.
    await page.locator('[data-testid="turn-edit"]').nth(1).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-assistant"]').length === 1);
    await settled(page);
    assert.equal(await page.inputValue('[data-path="/input/0/content/0/text"]'), 'Two');
    assert.equal(await page.inputValue('[data-path="/input/2/content/0/text"]'), 'Three');
    assert.equal(await page.$('[data-path="/parameters/memory_id"]'), null, 'a new memory');
    assert.equal(await tone(page), 'valid');
    await shot(page, 'conversation-02-edited');
  });
});
