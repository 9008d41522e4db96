// The model in the playground, end to end against a real agent-gateway in headless Chromium: a
// model field per provider with the model table's ids as suggestions, what the model refuses
// marked at the field it is about, and "Shrink to fit" for an image over the chosen provider's
// bytes or pixels: drawn smaller in the browser in its own format, then checked again.
//
// Run: node --test tests/playground/models.test.mjs   (after scripts/build-site and cargo build -p agent-gateway)

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { copied, diagnostics, launchBrowser, openPlayground, settled, showForm, startGateway } from './support.mjs';

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

/** The image's size as the browser decodes it (so the bytes are a whole image, not a header). */
function decodedSize(page, bytes, type) {
  return page.evaluate(
    async ({ base64, type }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type }));
      return [bitmap.width, bitmap.height];
    },
    { base64: bytes.toString('base64'), type },
  );
}

/** The format the bytes' signature names. */
function signature(bytes) {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return 'unknown';
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
      await page.waitForSelector('#temperature.has-error');
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
      // The field's mark is drawn in the frame after the analysis: wait for it, not for a time.
      await page.waitForSelector('#model.has-warning');
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

  // Each image the provider refuses for its size, shrunk in its own format until it fits.
  const cases = [
    // 9000 px wide: Bedrock Converse takes at most 8000 px a side.
    { name: 'a PNG over the pixels', type: 'image/png', format: 'png', width: 9000, height: 100, fits: ([w, h]) => w <= 8000 && h <= 8000 },
    { name: 'a WebP over the pixels', type: 'image/webp', format: 'webp', width: 8500, height: 60, fits: ([w, h]) => w <= 8000 && h <= 8000 },
    // Random pixels at full quality: over the 3.75 MB Bedrock takes of one image.
    { name: 'a JPEG over the bytes', type: 'image/jpeg', format: 'jpeg', width: 1600, height: 1600, noise: true, quality: 1, bytes: 3_932_160 },
  ];
  for (const c of cases) {
    test(`Shrink to fit: ${c.name} stays ${c.format.toUpperCase()} and is taken`, async () => {
      const { page, context, seen } = await openPlayground(browser, gateway.base);
      try {
        await provider(page, 'bedrock-converse');
        await showForm(page, 'blocks');
        const image = await drawImage(page, c);
        if (c.bytes) assert.ok(image.length > c.bytes, `the test image is ${image.length} B, not over ${c.bytes} B`);
        await attach(page, `big.${c.format}`, c.type, image, 1);
        const refused = await diagnostics(page, 'conversion-error');
        assert.deepEqual(refused, [{ code: 'provider_limit', path: '/input/1/source/data', severity: 'error' }]);
        const action = '[data-testid="conversion-error"][data-path="/input/1/source/data"] [data-testid="shrink-to-fit"]';
        // The drawing script is fetched by the click, not before.
        const drawing = () => seen.requests.filter((u) => u.includes('/shrink/')).map((u) => new URL(u).pathname);
        assert.deepEqual(drawing(), []);
        await page.click(action);
        await page.waitForFunction(() => /Shrunk the image/.test(document.querySelector('[data-testid="notice"]')?.textContent ?? ''));
        await settled(page);
        assert.deepEqual(drawing(), ['/shrink/shrink.js']);
        assert.deepEqual(await diagnostics(page, 'conversion-error'), []);
        assert.equal(await page.$(action), null);
        assert.match(await page.textContent('[data-testid="validation-summary"]'), /^Valid input/);

        // The request now carries the smaller image, in its own format, whole.
        const body = JSON.parse(await copied(page, '[data-testid="copy-body"]'));
        const sent = body.messages[0].content[1].image;
        assert.equal(sent.format, c.format);
        const bytes = Buffer.from(sent.source.bytes, 'base64');
        assert.equal(signature(bytes), c.format);
        const size = await decodedSize(page, bytes, c.type);
        if (c.fits) assert.ok(c.fits(size), `${size.join(' × ')} px`);
        if (c.bytes) assert.ok(bytes.length <= c.bytes, `${bytes.length} B`);
        // The aspect ratio is kept (to the pixel the scaling rounds to).
        assert.ok(Math.abs(size[0] / size[1] - c.width / c.height) < (c.width / c.height) * 0.05, `${size.join(' × ')} px`);
        const notice = await page.textContent('[data-testid="notice"]');
        assert.ok(notice.includes(`${size[0]} × ${size[1]} px (${c.format.toUpperCase()}`), notice);
      } finally {
        await context.close();
      }
    });
  }

  test('Shrink to fit says so when its drawing script does not load, and the next click tries again', async () => {
    const { page, context, seen } = await openPlayground(browser, gateway.base);
    try {
      await provider(page, 'bedrock-converse');
      await showForm(page, 'blocks');
      await attach(page, 'wide.png', 'image/png', await drawImage(page, { type: 'image/png', width: 9000, height: 100 }), 1);
      await page.route('**/shrink/shrink.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
      const action = '[data-testid="conversion-error"][data-path="/input/1/source/data"] [data-testid="shrink-to-fit"]';
      await page.click(action);
      await page.waitForFunction(() => /could not be shrunk/.test(document.querySelector('[data-testid="notice"]')?.textContent ?? ''));
      assert.match(await page.textContent('[data-testid="notice"]'), /The image could not be shrunk: the shrinking script did not load/);
      // Nothing changed: the image is still refused, with its action.
      assert.deepEqual(await diagnostics(page, 'conversion-error'), [{ code: 'provider_limit', path: '/input/1/source/data', severity: 'error' }]);
      await page.unroute('**/shrink/shrink.js');
      await page.click(action);
      await page.waitForFunction(() => /Shrunk the image/.test(document.querySelector('[data-testid="notice"]')?.textContent ?? ''));
      await settled(page);
      assert.deepEqual(await diagnostics(page, 'conversion-error'), []);
      assert.deepEqual(seen.errors, []);
    } finally {
      await context.close();
    }
  });
});
