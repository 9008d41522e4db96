// The playground's size limits, end to end against a real agent-gateway in headless Chromium:
// the total of attached files is capped (a file over it is refused with the cap and the total,
// and what was attached stays), and the backend's answer is read only up to its limit (web/README.md,
// "Limits").
//
// Run: node --test tests/playground/limits.test.mjs   (after scripts/build-site and cargo build -p agent-gateway)

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';

import { launchBrowser, openPlayground, settled, showForm, startGateway } from './support.mjs';

const MiB = 1024 * 1024;

let gateway;
let browser;

before(async () => {
  gateway = await startGateway();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
});

/** A PNG's signature followed by zeros: `bytes` long. */
function png(bytes) {
  const buffer = Buffer.alloc(bytes);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buffer);
  return buffer;
}

describe('the playground limits', () => {
  test('attached files total at most 45 MB: the file over it is refused, what is attached stays', async () => {
    const { page, context } = await openPlayground(browser, gateway.base);
    try {
      await showForm(page, 'blocks');
      await page.setInputFiles('[data-testid="file-upload"]', { name: 'big.png', mimeType: 'image/png', buffer: png(30 * MiB) });
      await page.waitForSelector('[data-path="/input/1/source/data"]');
      await settled(page);
      const sizeBefore = await page.textContent('[data-path="/input/1/source/data"] .size');
      assert.match(sizeBefore, /^30\.00 MB \(40\.00 MB base64\)/);

      await page.setInputFiles('[data-testid="file-upload"]', { name: 'more.png', mimeType: 'image/png', buffer: png(16 * MiB) });
      await page.waitForSelector('[data-testid="notice"]');
      assert.equal(
        await page.textContent('[data-testid="notice"]'),
        'more.png (16.00 MB) was not added: the files would total 46.00 MB with the 30.00 MB already attached, ' +
          "over the 45.00 MB one request carries (as base64, under agent-gateway's default 64 MB body limit). " +
          'What is attached is kept.',
      );
      await settled(page);
      // Nothing dropped, nothing added.
      assert.equal(await page.$('[data-path="/input/2"]'), null);
      assert.equal(await page.textContent('[data-path="/input/1/source/data"] .size'), sizeBefore);
      assert.match(await page.textContent('[data-testid="validation-summary"]'), /^Valid input · CONTENT_BLOCKS/);

      // Replacing the 30 MB image counts the rest only; a file that fits is still taken.
      await page.setInputFiles('[data-path="/input/1/source/data"] input[type=file]', { name: 'other.png', mimeType: 'image/png', buffer: png(20 * MiB) });
      await page.waitForFunction(() => /^20\.00 MB/.test(document.querySelector('[data-path="/input/1/source/data"] .size')?.textContent ?? ''));
      await page.setInputFiles('[data-testid="file-upload"]', { name: 'small.png', mimeType: 'image/png', buffer: png(4 * MiB) });
      await page.waitForSelector('[data-path="/input/2/source/data"]');
      await settled(page);
      assert.match(await page.textContent('[data-testid="validation-summary"]'), /^Valid input · CONTENT_BLOCKS/);
    } finally {
      await context.close();
    }
  });

  test('an answer over 16 MB is not read on, and says so', async () => {
    // A backend on another origin (CORS allowed) that streams up to 64 MiB of answer.
    let finished = null;
    let answerClosed;
    const closed = new Promise((resolve) => (answerClosed = resolve));
    const backend = createServer((req, res) => {
      const cors = {
        'access-control-allow-origin': gateway.base,
        'access-control-allow-headers': 'content-type, authorization',
        'access-control-allow-methods': 'POST',
      };
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors).end();
        return;
      }
      req.resume();
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      const chunk = Buffer.alloc(MiB, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < 64) {
          sent += 1;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      res.on('close', () => {
        finished = res.writableFinished;
        answerClosed();
      });
      pump();
    });
    await new Promise((r) => backend.listen(0, '127.0.0.1', r));
    const { page, context } = await openPlayground(browser, gateway.base);
    try {
      await page.fill('[data-testid="endpoint-input"]', `http://127.0.0.1:${backend.address().port}`);
      await page.uncheck('[data-testid="stream-toggle"]'); // _execute's answer limit
      await page.click('[data-testid="execute-button"]');
      await page.waitForSelector('[data-testid="run-notice"] [data-testid="execute-response"][data-status="200"]', { timeout: 60_000 });
      assert.match(await page.textContent('[data-testid="execute-response"]'), /No readable body \(over 16\.00 MB/);
      assert.equal(await page.$('[data-testid="execute-raw"]'), null);
      // The browser stopped reading: the connection closed before the backend sent all 64 MiB.
      await closed;
      assert.equal(finished, false);
    } finally {
      await context.close();
      backend.closeAllConnections();
      await new Promise((r) => backend.close(r));
    }
  });
});
