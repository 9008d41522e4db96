// The model in the playground, end to end against a real agent-gateway in headless Chromium: a
// model field per provider with the model table's ids as suggestions, and what the model refuses
// marked at the field it is about.
//
// Run: node --test tests/playground/models.test.mjs   (after scripts/build-site and cargo build -p agent-gateway)

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { diagnostics, launchBrowser, openPlayground, settled, showForm, startGateway } from './support.mjs';

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

/**
 * An image the browser draws and encodes (`type`: image/png, image/jpeg, image/webp), as a
 * Buffer: random pixels when `noise` (which compresses badly: large files), else a gradient.
 */
async function drawImage(page, { type, width, height, noise = false, quality = 0.92 }) {
  const base64 = await page.evaluate(
    async ({ type, width, height, noise, quality }) => {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (noise) {
        const image = ctx.createImageData(width, height);
        for (let at = 0; at < image.data.length; at += 65536) {
          crypto.getRandomValues(image.data.subarray(at, Math.min(at + 65536, image.data.length)));
        }
        for (let at = 3; at < image.data.length; at += 4) image.data[at] = 255;
        ctx.putImageData(image, 0, 0);
      } else {
        const gradient = ctx.createLinearGradient(0, 0, width, height);
        gradient.addColorStop(0, '#1d4ed8');
        gradient.addColorStop(1, '#f59e0b');
        ctx.fillStyle = gradient;
        ctx.fillRect(0, 0, width, height);
      }
      const blob = await canvas.convertToBlob({ type, quality });
      if (blob.type !== type) throw new Error(`Chromium wrote ${blob.type} for ${type}`);
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (let at = 0; at < bytes.length; at += 32768) binary += String.fromCharCode(...bytes.subarray(at, at + 32768));
      return btoa(binary);
    },
    { type, width, height, noise, quality },
  );
  return Buffer.from(base64, 'base64');
}

/** Chooses the provider, as the user does. */
async function provider(page, id) {
  await page.selectOption('[data-testid="provider-select"]', id);
  await settled(page);
}

/** Types the model id for the chosen provider. */
async function model(page, id) {
  await page.fill('[data-testid="model"]', id);
  await settled(page);
}

/** Attaches `bytes` as a file and waits until it is block `index` of the content blocks. */
async function attach(page, name, mimeType, bytes, index) {
  await page.setInputFiles('[data-testid="file-upload"]', { name, mimeType, buffer: bytes });
  await page.waitForSelector(`[data-path="/input/${index}/source/data"]`);
  await settled(page);
}

describe('the model in the playground', () => {
  test('a model field per provider, the table\'s ids as suggestions, its refusals at their fields', async () => {
    const { page, context } = await openPlayground(browser, gateway.base);
    try {
      await provider(page, 'openai-chat');
      const suggested = await page.$$eval('[data-testid="model-suggestions"] option', (os) => os.map((o) => o.value));
      assert.ok(suggested.includes('o3-mini') && suggested.includes('gpt-4o'), suggested.join(' '));
      assert.ok(!suggested.some((id) => id.startsWith('gemini') || id.startsWith('claude')), suggested.join(' '));

      // A reasoning model takes no temperature but its default: refused at the temperature field.
      await model(page, 'o3-mini');
      await page.fill('#temperature', '0.2');
      await settled(page);
      assert.match(await page.textContent('[data-testid="model-family"]'), /Checked as o3-mini/);
      assert.deepEqual(await diagnostics(page, 'conversion-error'), [
        { code: 'invalid_parameter', path: '/options/temperature', severity: 'error' },
      ]);
      assert.match(await page.getAttribute('#temperature', 'class'), /has-error/);
      assert.match(await page.getAttribute('#temperature', 'title'), /o3-mini/);

      // A model that takes it: converted, nothing marked.
      await model(page, 'gpt-4o');
      assert.deepEqual(await diagnostics(page, 'conversion-error'), []);
      assert.doesNotMatch((await page.getAttribute('#temperature', 'class')) ?? '', /has-error/);
      assert.match(await page.textContent('[data-testid="converse-output"]'), /"temperature": 0\.2/);

      // A model the table does not know: the provider's rules only, the warning at the field.
      await model(page, 'my-fine-tune');
      assert.deepEqual(await diagnostics(page, 'conversion-warning'), [
        { code: 'unknown_model', path: '/options/model', severity: 'warning' },
      ]);
      assert.match(await page.getAttribute('#model', 'class'), /has-warning/);
      assert.match(await page.textContent('[data-testid="model-family"]'), /Not in the model table/);

      // Each provider keeps its own model.
      await provider(page, 'gemini');
      assert.equal(await page.inputValue('#model'), '');
      assert.ok((await page.$$eval('[data-testid="model-suggestions"] option', (os) => os.map((o) => o.value))).includes('gemini-2.5-pro'));
      await provider(page, 'openai-chat');
      assert.equal(await page.inputValue('#model'), 'my-fine-tune');

      // An image for a model that takes none is refused at the image's block.
      await page.fill('#temperature', '');
      await model(page, 'o3-mini');
      await showForm(page, 'blocks');
      await attach(page, 'small.png', 'image/png', await drawImage(page, { type: 'image/png', width: 64, height: 64 }), 1);
      assert.deepEqual(await diagnostics(page, 'conversion-error'), [
        { code: 'unsupported_by_provider', path: '/input/1', severity: 'error' },
      ]);
      assert.match(await page.getAttribute('.form-area [data-path="/input/1"]', 'class'), /has-refusal/);
      await model(page, 'o4-mini');
      assert.deepEqual(await diagnostics(page, 'conversion-error'), []);
    } finally {
      await context.close();
    }
  });
});
