// The playground as a workbench, in Chromium against a real agent-gateway: one verdict that
// includes the chosen provider, nothing red the user did not do, tool calls and files made easy,
// the input and settings kept across a reload, the tabs' arrow keys, the sticky feedback and the
// phone's run bar, and axe-core finding nothing.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { axe, diagnostics, openPlayground, setJson, settled, shot, showForm, startPlayground, TEXT_INPUT } from './support.mjs';

const summary = (page) => page.textContent('[data-testid="validation-summary"]');
const tone = (page) => page.getAttribute('[data-testid="validation-summary"]', 'data-tone');

describe('the playground as a workbench', () => {
  let playground;
  let page;

  before(async () => {
    playground = await startPlayground();
    ({ page } = playground);
  });

  after(async () => {
    await playground?.close();
  });

  test('one verdict: a tool result answering no call is valid input the provider refuses, and its field is outlined', async () => {
    await setJson(page, JSON.stringify({ input: [
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      { role: 'assistant', content: [], toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      { role: 'tool', toolCallId: 'call_2', content: [{ type: 'text', text: '72F' }] },
    ] }));
    await showForm(page, 'messages');
    await settled(page);
    assert.match(await summary(page), /^Valid input · MESSAGES · Bedrock Converse refuses it: \d+ problems?$/);
    // Amber, not green: the input is valid, the chosen provider refuses it; the phone's bar says the same.
    assert.equal(await tone(page), 'refused');
    assert.equal(await page.getAttribute('[data-testid="run-summary"]', 'data-tone'), 'refused');
    const colours = await page.$eval('[data-testid="validation-summary"]', (el) => getComputedStyle(el).color);
    assert.equal(colours, 'rgb(138, 90, 0)');
    const problems = await diagnostics(page, 'conversion-error');
    assert.ok(problems.some((d) => d.path === '/input/2/toolCallId'), JSON.stringify(problems));
    // The place in words beside the pointer.
    assert.equal(await page.textContent('[data-testid="conversion-error"][data-path="/input/2/toolCallId"] [data-testid="where"]'), 'Message 3 › tool call id');
    assert.equal(await page.textContent('[data-testid="provider-problems-title"]'), 'Bedrock Converse');
    await page.waitForSelector('.form-area [data-path="/input/2/toolCallId"].has-refusal');
    assert.equal(await page.$('.form-area .has-error'), null, 'a refusal is not an input error');
    await shot(page, 'workbench-01-one-verdict');
  });

  test('"+ Assistant" then "+ Tool call": nothing red until a field is left; ids generated, no blank text', async () => {
    await setJson(page, JSON.stringify({ input: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }] }));
    await showForm(page, 'messages');
    await page.click('text=+ Assistant');
    await page.waitForSelector('[data-path="/input/1"]');
    await page.click('[data-path="/input/1"] [data-testid="add-tool-call"]');
    await page.waitForSelector('[data-path="/input/1/toolCalls/0/id"]');
    await settled(page);
    assert.equal(await page.inputValue('[data-path="/input/1/toolCalls/0/id"]'), 'call_1');
    assert.equal(await page.$('[data-path="/input/1/content/0"]'), null, 'a call-only message has no blank text block');
    assert.equal(await tone(page), 'waiting');
    assert.match(await summary(page), /^\d+ fields? to fill in · MESSAGES$/);
    assert.deepEqual(await diagnostics(page), []);
    assert.equal(await page.$('.form-area .has-error'), null);
    assert.equal(await page.getAttribute('[data-testid="execute-button"]', 'aria-disabled'), 'true');
    assert.equal(await page.textContent('[data-testid="execute-status"]'), 'Fill in the new fields to run.');
    await shot(page, 'workbench-02-held');
    // Left empty, the name's error shows.
    await page.focus('[data-path="/input/1/toolCalls/0/function/name"]');
    await page.focus('[data-path="/input/0/content/0/text"]');
    await page.waitForSelector('[data-path="/input/1/toolCalls/0/function/name"].has-error');
    assert.equal(await tone(page), 'invalid');
    await page.fill('[data-path="/input/1/toolCalls/0/function/name"]', 'get_weather');
    await page.fill('[data-path="/input/1/toolCalls/0/function/arguments"]', '{"city": "Paris"}');
    // "+ Tool result" answers the unanswered call.
    await page.click('text=+ Tool result');
    await page.waitForSelector('[data-path="/input/2/toolCallId"]');
    assert.equal(await page.inputValue('[data-path="/input/2/toolCallId"]'), 'call_1');
    await page.fill('[data-path="/input/2/content/0/text"]', '18C');
    await settled(page);
    // Bedrock needs the tools declared: one click makes them from the calls.
    await page.waitForSelector('[data-testid="tools-from-calls"]');
    await page.click('[data-testid="tools-from-calls"]');
    await settled(page);
    assert.match(await summary(page), /^Valid input · MESSAGES · Bedrock Converse takes it$/);
    const tools = JSON.parse(await page.inputValue('[data-testid="tools"]'));
    assert.deepEqual(tools[0].input_schema, { type: 'object', properties: { city: { type: 'string' } } });
  });

  test('"+ Tool result" offers every call no result answers yet; one click when there is one', async () => {
    const call = (id, name) => ({ id, type: 'function', function: { name, arguments: '{}' } });
    await setJson(page, JSON.stringify({ input: [
      { role: 'user', content: [{ type: 'text', text: 'Weather and time in Paris?' }] },
      { role: 'assistant', content: [], toolCalls: [call('call_1', 'get_weather'), call('call_2', 'get_time')] },
      { role: 'tool', toolCallId: 'call_1', content: [{ type: 'text', text: '18C' }] },
      { role: 'assistant', content: [], toolCalls: [call('call_3', 'get_news')] },
    ] }));
    await showForm(page, 'messages');
    const button = '[data-testid="add-tool-result"]';
    const offered = () => page.$$eval('[data-testid="tool-result-for"]', (bs) => bs.map((b) => [b.dataset.call, b.textContent]));
    // call_2 and call_3 are open: the click lists them, the first focused, and adds nothing yet.
    await page.click(button);
    await page.waitForSelector('[data-testid="tool-result-menu"]');
    assert.deepEqual(await offered(), [['call_2', 'call_2 · get_time'], ['call_3', 'call_3 · get_news']]);
    assert.equal(await page.getAttribute(button, 'aria-expanded'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.call), 'call_2');
    assert.equal(await page.$('[data-path="/input/4"]'), null);
    assert.deepEqual(await axe(page), []);
    // Escape closes the list, the focus back on the button; a second click on the button too.
    await page.keyboard.press('Escape');
    assert.equal(await page.$('[data-testid="tool-result-menu"]'), null);
    assert.equal(await page.getAttribute(button, 'aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'add-tool-result');
    await page.click(button);
    await page.click(button);
    assert.equal(await page.$('[data-testid="tool-result-menu"]'), null);
    // Chosen by keyboard: the result answers the call picked, not the first.
    await page.click(button);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-path="/input/4/toolCallId"]');
    assert.equal(await page.inputValue('[data-path="/input/4/toolCallId"]'), 'call_3');
    assert.equal(await page.$('[data-testid="tool-result-menu"]'), null);
    // One left: one click answers it. An id typed into a result counts as answered.
    await page.click(button);
    await page.waitForSelector('[data-path="/input/5/toolCallId"]');
    assert.equal(await page.inputValue('[data-path="/input/5/toolCallId"]'), 'call_2');
    await page.fill('[data-path="/input/5/toolCallId"]', 'call_9');
    await page.click(button);
    await page.waitForSelector('[data-path="/input/6/toolCallId"]');
    assert.equal(await page.inputValue('[data-path="/input/6/toolCallId"]'), 'call_2');
    // None left: a result with an empty id to fill in.
    await page.click(button);
    await page.waitForSelector('[data-path="/input/7/toolCallId"]');
    assert.equal(await page.inputValue('[data-path="/input/7/toolCallId"]'), '');
    assert.equal(await page.$('[data-testid="tool-result-menu"]'), null);
    assert.deepEqual(playground.seen.errors, []);
  });

  test('every valid example converts for the default provider; examples are grouped', async () => {
    const groups = await page.$$eval('[data-testid="example-select"] optgroup', (gs) => gs.map((g) => [g.label, g.querySelectorAll('option').length]));
    assert.deepEqual(groups.map(([label]) => label), ['Valid inputs', 'Common mistakes']);
    const valid = await page.$$eval('[data-testid="example-select"] optgroup:first-of-type option', (os) => os.map((o) => o.textContent));
    for (const label of valid) {
      await page.selectOption('[data-testid="example-select"]', { label });
      await settled(page);
      assert.match(await summary(page), /^Valid input · [A-Z_]+ · Bedrock Converse takes it/, label);
      assert.equal(await page.textContent('[data-testid="share-note"] span'), `Example: ${label}.`);
    }
    // The banner goes once the input is edited.
    await setJson(page, '{"input": "My own words"}');
    await page.waitForSelector('[data-testid="share-note"]', { state: 'detached' });
  });

  test('the first line says what the tool is and offers examples', async () => {
    assert.match(await page.textContent('[data-testid="intro"]'), /^Build the input of an OpenSearch ml-commons agent, see whether Bedrock, OpenAI, Anthropic and Gemini take it, and run it as a chat\./);
    const offered = await page.$$eval('[data-testid="try-example"]', (bs) => bs.map((b) => b.textContent));
    assert.equal(offered.length, 3);
    await page.click('[data-testid="try-example"]');
    await settled(page);
    assert.equal(await page.textContent('[data-testid="share-note"] span'), `Example: ${offered[0]}.`);
    assert.match(await summary(page), /^Valid input · [A-Z_]+ · Bedrock Converse takes it/);
  });

  test('the ready state never turns red by a click: the blank next turn stays neutral', async () => {
    await page.check('[data-testid="stream-toggle"]');
    await setJson(page, '{"input": "Hi"}');
    await showForm(page, 'text');
    await page.fill(TEXT_INPUT, 'Hello, once');
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="validation-summary"]').dataset.tone === 'waiting');
    assert.match(await summary(page), /^Ready for the next turn \(continuing conversation .+\)$/);
    // Clicks elsewhere (the composer left): still waiting, nothing outlined.
    for (const target of ['[data-testid="event-log"] summary', '[data-testid="stream-toggle"]', '[data-testid="stream-toggle"]', '#validation-title']) {
      await page.click(target);
      await settled(page);
      assert.equal(await tone(page), 'waiting', target);
      assert.equal(await page.$('.has-error'), null, target);
      assert.deepEqual(await diagnostics(page), [], target);
    }
    // A run tried on the blank turn shows why nothing was sent (Execute is aria-disabled, still clickable).
    await page.$eval('[data-testid="execute-button"]', (b) => b.click());
    await settled(page);
    assert.equal(await tone(page), 'invalid');
    await page.click('[data-testid="chat-new-conversation"]');
  });

  test('settings: a value the provider cannot take is outlined with its reason; Cache TTL waits for caching', async () => {
    await setJson(page, '{"input": "Hi"}');
    await page.$eval('.settings', (d) => (d.open = true));
    await page.fill('#temperature', 'abc');
    await settled(page);
    await page.waitForSelector('#temperature.has-error[aria-invalid="true"]');
    assert.match(await page.getAttribute('#temperature', 'title'), /temperature/i);
    assert.equal(await summary(page), 'Valid input · TEXT · 1 setting to fix');
    assert.equal(await tone(page), 'invalid');
    await page.fill('#temperature', '');
    await settled(page);
    await page.waitForSelector('#temperature:not(.has-error)');
    assert.equal(await tone(page), 'valid');
    // Cache TTL: disabled with its reason while caching is off.
    await page.uncheck('[data-testid="prompt-cache"]');
    assert.equal(await page.isDisabled('[data-testid="prompt-cache-ttl"]'), true);
    assert.match(await page.textContent('[data-testid="prompt-cache-ttl-why"]'), /^Turn on prompt caching/);
    await page.check('[data-testid="prompt-cache"]');
    assert.equal(await page.isDisabled('[data-testid="prompt-cache-ttl"]'), false);
    assert.equal(await page.textContent('[data-testid="prompt-cache-ttl-why"]'), '');
    await page.uncheck('[data-testid="prompt-cache"]');
  });

  test('files: an unsupported file is refused by name; names on cards; an image that does not decode gets a tile', async () => {
    await setJson(page, '{"input": "Look"}');
    await showForm(page, 'text');
    await page.setInputFiles('[data-testid="file-upload"]', { name: 'clip.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000') });
    await page.waitForSelector('[data-testid="notice"]');
    assert.match(await page.textContent('[data-testid="notice"]'), /^clip\.mp3 was not added: it is audio\./);
    assert.equal(await page.$('.form[data-form="blocks"]'), null, 'nothing was added');
    const broken = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64, 7)]);
    await page.setInputFiles('[data-testid="file-upload"]', { name: 'broken.png', mimeType: 'image/png', buffer: broken });
    await page.waitForSelector('[data-path="/input/1/source/data"] [data-testid="file-name"]');
    assert.equal(await page.textContent('[data-path="/input/1/source/data"] [data-testid="file-name"]'), 'broken.png');
    await page.waitForSelector('[data-path="/input/1/source/data"] [data-testid="no-preview"]');
    await shot(page, 'workbench-04-files');
  });

  test('arrow keys move between the tabs', async () => {
    await setJson(page, '{"input": "Hi"}');
    await showForm(page, 'text');
    await page.focus('[data-testid="form-text"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('.form[data-form="blocks"]');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'form-blocks');
    assert.equal(await page.getAttribute('[data-testid="form-blocks"]', 'tabindex'), '0');
    assert.equal(await page.getAttribute('[data-testid="form-text"]', 'tabindex'), '-1');
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('.form[data-form="text"]');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'form-text');
  });

  test('the input and the settings are kept across a reload; the feedback stays in view; axe finds nothing', async () => {
    await page.fill(TEXT_INPUT, 'Kept for later');
    await page.fill('#temperature', '0.3');
    await page.selectOption('[data-testid="provider-select"]', 'openai-chat');
    await settled(page);
    assert.equal(await page.getAttribute('#temperature', 'placeholder'), '0–2');
    // Saved as the page goes.
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide')));
    await page.waitForFunction(() => {
      const kept = JSON.parse(localStorage.getItem('agent-input-playground/work') ?? '""').split('share=')[1];
      if (!kept) return false;
      const b64 = kept.replace(/-/g, '+').replace(/_/g, '/');
      const text = new TextDecoder().decode(Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0)));
      return text.includes('Kept for later') && text.includes('openai-chat') && text.includes('0.3');
    });
    await page.reload();
    await settled(page);
    assert.equal(await page.inputValue(TEXT_INPUT), 'Kept for later');
    assert.equal(await page.inputValue('#temperature'), '0.3');
    assert.equal(await page.inputValue('[data-testid="provider-select"]'), 'openai-chat');
    // Scrolled to the end of the workbench (the backend's settings), the verdict and the request
    // are still on screen (sticky beside it).
    // A short window, so that the workbench is taller than it.
    const size = page.viewportSize();
    await page.setViewportSize({ width: size.width, height: 480 });
    await page.evaluate(() => document.querySelector('.pane.run').scrollIntoView({ block: 'end' }));
    assert.ok(await page.evaluate(() => window.scrollY) > 200, 'the workbench is taller than the window');
    await page.waitForFunction(() => {
      const r = document.querySelector('[data-testid="validation-summary"]').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'workbench-06-1280');
    assert.deepEqual(await axe(page), []);
  });

  test('phones: the verdict and Execute in a bar at the bottom of the screen', async () => {
    const phone = await openPlayground(playground.browser, playground.gateway.base, { width: 390, height: 844 });
    try {
      const bar = await phone.page.$eval('[data-testid="run-bar"]', (el) => {
        const r = el.getBoundingClientRect();
        return { position: getComputedStyle(el).position, bottom: r.bottom, height: window.innerHeight };
      });
      assert.equal(bar.position, 'fixed');
      assert.ok(Math.abs(bar.bottom - bar.height) < 2, JSON.stringify(bar));
      assert.ok(await phone.page.isVisible('[data-testid="run-bar"] [data-testid="execute-button"]'));
      assert.match(await phone.page.textContent('[data-testid="run-bar"] .run-summary'), /^Valid input/);
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390px`);
      await shot(phone.page, 'workbench-07-390');
      assert.deepEqual(await axe(phone.page), []);
    } finally {
      await phone.context.close();
    }
  });
});
