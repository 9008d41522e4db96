// The playground's streamed Execute, end to end in headless Chromium against a real agent-gateway
// (its `_execute/stream` endpoint and the offline echo agent): the answer grows as its AG-UI events
// arrive, the event log has exactly one RUN_STARTED first and one terminal event, Stop cancels
// mid-stream, the conversation continues in place on RUN_STARTED's threadId, and errors before the
// stream (a 400, no backend) are shown as such.
//
// Run: node --test tests/playground/chat.test.mjs   (after scripts/build-site and cargo build -p agent-gateway)

import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';

import {
  TEXT_INPUT,
  freePort,
  launchBrowser,
  openPlayground,
  settled,
  shot,
  showForm,
  startGateway,
} from './support.mjs';

let gateway;
let browser;
let paced;

/**
 * A loopback proxy in front of the gateway that passes everything through, but writes the
 * streaming endpoint's answer one SSE event every `pauseMs`, as a model writing its answer would
 * (the echo agent's events are all ready at once, and arrive in one network read otherwise).
 */
async function pacedProxy(target, pauseMs) {
  // Streams the browser closed before their end (Stop aborts the fetch), and who waits for them.
  let aborted = 0;
  const waiting = [];
  const server = createServer((req, res) => {
    const up = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode, upRes.headers);
      if (!req.url.endsWith('/_execute/stream') || upRes.statusCode !== 200) {
        upRes.pipe(res);
        return;
      }
      upRes.setEncoding('utf8');
      let buffer = '';
      let queue = Promise.resolve();
      const later = (write) => {
        queue = queue.then(async () => {
          if (!res.destroyed) write();
          await new Promise((r) => setTimeout(r, pauseMs));
        });
      };
      upRes.on('data', (d) => {
        buffer += d;
        const events = buffer.split('\n\n');
        buffer = events.pop();
        for (const e of events) later(() => res.write(`${e}\n\n`));
      });
      upRes.on('end', () => later(() => res.end(buffer)));
      res.on('close', () => {
        upRes.destroy();
        if (!res.writableEnded) {
          aborted += 1;
          for (const wake of waiting.splice(0)) wake();
        }
      });
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    /** How many streams the browser has closed before their end. */
    aborted: () => aborted,
    /** Resolves once `n` streams have been closed by the browser before their end. */
    async abortedAtLeast(n) {
      while (aborted < n) await new Promise((wake) => waiting.push(wake));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

before(async () => {
  gateway = await startGateway();
  paced = await pacedProxy(gateway.base, 250);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await paced?.close();
  await gateway?.stop();
});

/** Starts a new conversation and waits until the chat and the memory id are gone. */
async function newConversation(page) {
  await page.click('[data-testid="chat-new-conversation"]');
  await page.waitForFunction(
    () => !document.querySelector('[data-testid="chat-assistant"]') && !document.querySelector('[data-path="/parameters/memory_id"]'),
  );
}

/** The event log of the assistant turn `n` (0-based) as `{type, ms, json, problem}`. */
function eventLog(page, n) {
  return page.evaluate((n) => {
    const turn = document.querySelectorAll('[data-testid="chat-assistant"]')[n];
    return [...turn.querySelectorAll('[data-testid="event"]')].map((li) => ({
      type: li.dataset.type,
      ms: Number(li.dataset.ms),
      json: li.querySelector('.json').textContent,
      problem: li.querySelector('[data-testid="event-problem"]')?.textContent ?? null,
    }));
  }, n);
}

/** The non-streamed answer to `body`, from `_execute` (what the stream must add up to). */
async function executed(body) {
  const response = await fetch(`${gateway.base}/_plugins/_ml/agents/echo/_execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  const json = await response.json();
  return json.inference_results[0].output.find((o) => o.name === 'response').result;
}

/** Records the last assistant turn's text and status at every change of the chat. */
async function watchAnswers(page) {
  await page.evaluate(() => {
    window.__answers = [];
    const chat = document.querySelector('[data-testid="chat"]');
    new MutationObserver(() => {
      const turns = document.querySelectorAll('[data-testid="chat-assistant"]');
      const last = turns[turns.length - 1];
      if (!last) return;
      const text = [...last.querySelectorAll('[data-testid="chat-answer"]')].map((p) => p.textContent).join('');
      window.__answers.push({ text, status: last.dataset.status });
    }).observe(chat, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

describe('the playground streams Execute (AG-UI events from _execute/stream)', () => {
  let page;
  let context;
  let seen;

  before(async () => {
    // The page comes through the pacing proxy, so its own origin is the endpoint (as with the gateway).
    ({ page, context, seen } = await openPlayground(browser, paced.base));
  });

  after(async () => {
    await context?.close();
  });

  test('streaming is on by default; the answer grows chunk by chunk; the log has one RUN_STARTED first and one terminal event', async () => {
    assert.equal(await page.isChecked('[data-testid="stream-toggle"]'), true);
    await showForm(page, 'text');
    await page.fill(TEXT_INPUT, 'Hello there');
    await settled(page);
    const expected = await executed({ input: 'Hello there' });
    await watchAnswers(page);
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]', { timeout: 30_000 });
    const answer = await page.textContent('[data-testid="chat-answer"]');
    assert.equal(answer, expected, 'the streamed text is the non-streamed answer');
    assert.match(answer, /^echo: 1 message \(user\)/);

    // Seen growing: several distinct partial texts, each a prefix of the answer, before the end.
    const answers = await page.evaluate(() => window.__answers);
    const partial = [...new Set(answers.filter((a) => a.status === 'streaming' && a.text && a.text !== answer).map((a) => a.text))];
    assert.ok(partial.length >= 2, `the answer was shown whole, not growing: ${JSON.stringify(partial)}`);
    for (const text of partial) assert.ok(answer.startsWith(text), `${JSON.stringify(text)} is not a prefix of the answer`);

    const log = await eventLog(page, 0);
    const types = log.map((e) => e.type);
    assert.equal(types[0], 'RUN_STARTED');
    assert.equal(types.filter((t) => t === 'RUN_STARTED').length, 1);
    assert.deepEqual(types.filter((t) => t === 'RUN_FINISHED' || t === 'RUN_ERROR'), ['RUN_FINISHED']);
    assert.equal(types.at(-1), 'RUN_FINISHED');
    assert.ok(types.filter((t) => t === 'TEXT_MESSAGE_CONTENT').length >= 2, types.join());
    assert.deepEqual(log.filter((e) => e.problem), []);
    // Timings: ms since the request, in order; the deltas add up to the answer.
    for (let i = 1; i < log.length; i += 1) assert.ok(log[i].ms >= log[i - 1].ms, `${log[i - 1].ms} then ${log[i].ms}`);
    assert.ok(log.at(-1).ms > log[0].ms, 'paced, the run took time');
    const deltas = log.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT').map((e) => JSON.parse(e.json).delta);
    assert.equal(deltas.join(''), answer);
    const started = JSON.parse(log[0].json);
    assert.equal(await page.getAttribute('[data-testid="chat-assistant"]', 'data-thread'), started.threadId);
    assert.match(await page.textContent('[data-testid="chat-timing"]'), /response \d+ ms · first event \d+ ms · ended \d+ ms/);

    // The user's turn; continued in place: the memory id set, the input cleared for the next turn.
    assert.equal(await page.textContent('[data-testid="chat-user"] .said'), 'Hello there');
    assert.equal(await page.inputValue('[data-path="/parameters/memory_id"]'), started.threadId);
    assert.equal(await page.inputValue(TEXT_INPUT), '');
    await page.$eval('[data-testid="event-log"]', (d) => (d.open = true));
    await shot(page, 'chat-01-streamed');
  });

  test('the conversation continues in place: the second turn uses the memory', async () => {
    const thread = await page.getAttribute('[data-testid="chat-assistant"]', 'data-thread');
    await page.fill(TEXT_INPUT, 'And again?');
    await settled(page);
    await page.click('[data-testid="execute-button"]');
    await page.waitForFunction(() => {
      const turns = document.querySelectorAll('[data-testid="chat-assistant"]');
      return turns.length === 2 && turns[1].dataset.status === 'finished';
    });
    const turns = await page.$$eval('[data-testid="chat-assistant"]', (els) =>
      els.map((el) => ({ thread: el.dataset.thread, text: el.querySelector('[data-testid="chat-answer"]').textContent })),
    );
    assert.equal(turns[1].thread, thread, 'the same memory');
    // The echo agent counts the messages it got: the first turn, its answer, the new one.
    assert.match(turns[1].text, /^echo: 3 messages \(user, assistant, user\)/);
    assert.deepEqual(await page.$$eval('[data-testid="chat-user"] .said', (els) => els.map((e) => e.textContent)), ['Hello there', 'And again?']);
    await shot(page, 'chat-02-continued');

    await newConversation(page);
    await page.fill(TEXT_INPUT, 'Fresh start');
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]');
    assert.notEqual(await page.getAttribute('[data-testid="chat-assistant"]', 'data-thread'), thread);
    assert.match(await page.textContent('[data-testid="chat-answer"]'), /^echo: 1 message \(user\)/);
    await newConversation(page);
  });

  test('Stop cancels mid-stream: the partial answer stays, the UI says stopped, nothing continues', async () => {
    await page.fill(TEXT_INPUT, 'Stop me');
    await settled(page);
    const full = await executed({ input: 'Stop me' });
    const abortedBefore = paced.aborted();
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="stop-button"]:not(.hidden)');
    await page.waitForSelector('[data-testid="chat-assistant"] [data-testid="event"][data-type="TEXT_MESSAGE_CONTENT"]', { state: 'attached' });
    await page.click('[data-testid="stop-button"]');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="stopped"]');
    assert.match(await page.textContent('[data-testid="chat-stopped"]'), /^Stopped/);
    const partial = await page.textContent('[data-testid="chat-answer"]');
    assert.ok(partial.length > 0 && partial.length < full.length && full.startsWith(partial), `${partial} / ${full}`);
    // Nothing more arrives: the fetch was aborted (the proxy sees the stream closed before its end).
    await paced.abortedAtLeast(abortedBefore + 1);
    assert.equal(await page.textContent('[data-testid="chat-answer"]'), partial);
    const types = (await eventLog(page, 0)).map((e) => e.type);
    assert.equal(types[0], 'RUN_STARTED');
    assert.deepEqual(types.filter((t) => t === 'RUN_FINISHED' || t === 'RUN_ERROR'), []);
    assert.equal(await page.isEnabled('[data-testid="execute-button"]'), true);
    assert.ok(await page.$('[data-testid="stop-button"].hidden'));
    // A stopped turn is not continued: the input stays to send again.
    assert.equal(await page.inputValue(TEXT_INPUT), 'Stop me');
    await shot(page, 'chat-03-stopped');
    await newConversation(page);
  });

  test('a run refused before the stream, or with no backend, is a notice above the composer, not a turn', async () => {
    await page.fill(TEXT_INPUT, 'Who are you?');
    await page.fill('[data-testid="agent-id-input"]', 'no-such-agent');
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="run-notice"] [data-testid="execute-response"][data-status="404"]');
    assert.equal(await page.$('[data-testid="chat-assistant"]'), null, 'a failed run is not a turn');
    assert.equal(await page.inputValue(TEXT_INPUT), 'Who are you?');
    await shot(page, 'chat-04-refused');
    await page.fill('[data-testid="agent-id-input"]', 'echo');

    const closed = await freePort();
    await page.fill('[data-testid="endpoint-input"]', `http://127.0.0.1:${closed}`);
    await page.fill(TEXT_INPUT, 'Anyone?');
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="run-notice"] [data-testid="execute-network-error"]');
    const text = await page.textContent('[data-testid="run-notice"] [data-testid="execute-network-error"]');
    assert.match(text, new RegExp(`Could not reach http://127.0.0.1:${closed}`));
    assert.match(text, /--cors-origin/);
    assert.equal(await page.$('[data-testid="chat-assistant"]'), null);
    await page.fill('[data-testid="endpoint-input"]', paced.base);
    // The next run clears the notice.
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]');
    assert.equal(await page.$('[data-testid="run-notice"]'), null);
    await newConversation(page);
  });

  test('Ctrl+Enter sends from the composer; the newest answer is scrolled into view under the transcript', async () => {
    await showForm(page, 'text');
    await page.fill(TEXT_INPUT, 'Sent by keyboard');
    await settled(page);
    await page.focus(TEXT_INPUT);
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]');
    assert.equal(await page.textContent('[data-testid="chat-user"] .said'), 'Sent by keyboard');
    // The transcript sits right above the composer, in the same column.
    const [chatBox, buildBox] = await Promise.all([page.$eval('[data-testid="chat"]', (e) => e.getBoundingClientRect().toJSON()), page.$eval('.pane.build', (e) => e.getBoundingClientRect().toJSON())]);
    assert.ok(chatBox.bottom <= buildBox.top && Math.abs(chatBox.left - buildBox.left) < 40, JSON.stringify({ chatBox, buildBox }));
    const inView = await page.$eval('[data-testid="chat-assistant"]', (el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight;
    });
    assert.ok(inView, 'the answer is on screen');
    await newConversation(page);
  });

  test('images are thumbnails in the user turn; no CSP violation, no page error', async () => {
    await showForm(page, 'blocks');
    await page.fill('[data-path="/input/0/text"]', 'What is in this picture?');
    const png = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: 32, height: 24 } });
    await page.setInputFiles('[data-testid="file-upload"]', { name: 'tiny.png', mimeType: 'image/png', buffer: png });
    await page.waitForSelector('[data-path="/input/1/source/data"]');
    await settled(page);
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]');
    // Shown finished, the conversation is continued already (here the body ends a pace after
    // RUN_FINISHED; continued only then, New conversation in between left the image behind).
    assert.ok(await page.$('[data-path="/parameters/memory_id"]'), 'not continued at RUN_FINISHED');
    const thumb = await page.$eval('[data-testid="chat-thumbnail"] img', (img) => ({ src: img.src, width: img.naturalWidth, alt: img.alt }));
    assert.ok(thumb.src.startsWith('blob:') || thumb.src.startsWith('data:image/png'), thumb.src);
    assert.equal(thumb.width, 32, 'the thumbnail loaded');
    assert.match(thumb.alt, /^image png /);
    assert.match(await page.textContent('[data-testid="chat-answer"]'), /image png/);
    await shot(page, 'chat-05-image');
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(seen.errors, []);
    await newConversation(page);
  });

  test('streaming off: the _execute answer is a turn too, and the conversation continues the same way', async () => {
    await page.uncheck('[data-testid="stream-toggle"]');
    await showForm(page, 'text');
    await page.fill(TEXT_INPUT, 'Not streamed');
    await page.click('[data-testid="execute-button"]');
    await page.waitForSelector('[data-testid="chat-assistant"][data-status="finished"]');
    assert.match(await page.textContent('[data-testid="chat-answer"]'), /^echo: 1 message \(user\)/);
    const thread = await page.getAttribute('[data-testid="chat-assistant"]', 'data-thread');
    assert.equal(await page.inputValue('[data-path="/parameters/memory_id"]'), thread);
    assert.equal(await page.inputValue(TEXT_INPUT), '');
    await page.fill(TEXT_INPUT, 'Still not streamed');
    await page.click('[data-testid="execute-button"]');
    await page.waitForFunction(() => {
      const turns = document.querySelectorAll('[data-testid="chat-assistant"]');
      return turns.length === 2 && turns[1].dataset.status === 'finished';
    });
    assert.match(await page.$$eval('[data-testid="chat-answer"]', (els) => els[1].textContent), /^echo: 3 messages/);
    await page.check('[data-testid="stream-toggle"]');
    await newConversation(page);
  });
});
