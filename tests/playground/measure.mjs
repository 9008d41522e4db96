// Measures the playground (not a test: numbers, no pass/fail): shipped size, time to
// interactive, and keystroke-to-update latency in the form and in the JSON editor, for every
// provider view, with and without a 5 MB image (side by side). PROVIDERS=a,b limits the views. Writes target/playground/measurements.json and prints a summary.
//
// Run: node tests/playground/measure.mjs   (after scripts/build-site and cargo build -p agent-gateway)

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { artifacts, launchBrowser, openPlayground, settled, showForm, site, startGateway } from './support.mjs';

const KEYSTROKES = Number(process.env.KEYSTROKES ?? 60);
const IMAGE_BYTES = 5 * 1024 * 1024;

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { n: s.length, median: +at(0.5).toFixed(1), p95: +at(0.95).toFixed(1), max: +s.at(-1).toFixed(1) };
};

function sizes() {
  const out = {};
  let raw = 0;
  let gz = 0;
  // The app's JavaScript snippets (the schema and register modules' loaders) load with it.
  const snippets = readdirSync(join(site, 'snippets'), { recursive: true })
    .filter((f) => f.endsWith('.js'))
    .map((f) => join('snippets', f));
  for (const file of ['playground_bg.wasm', 'playground.js', 'boot.js', 'style.css', 'index.html', ...snippets]) {
    const bytes = readFileSync(join(site, file));
    const g = gzipSync(bytes, { level: 9 }).length;
    out[file] = { raw: bytes.length, gzip: g };
    raw += bytes.length;
    gz += g;
  }
  out.total = { raw, gzip: gz };
  return out;
}

/**
 * Types KEYSTROKES characters into `selector`, timing each from keydown to the frame after the
 * panes were updated. The update is seen by a MutationObserver on the app's analysed revision
 * (polling with timers would see it late: the browser runs timers after its input work).
 */
async function typeLatency(page, selector) {
  await page.evaluate((sel) => {
    const app = document.querySelector('.app');
    const el = document.querySelector(sel);
    window.__lat = [];
    window.__work = [];
    let pending = null;
    new MutationObserver(() => {
      if (pending && Number(app.dataset.rev) > pending.rev0 && app.dataset.analyzedRev === app.dataset.rev) {
        const { t0 } = pending;
        pending = null;
        window.__work.push(Number(app.dataset.analysisMs));
        // The next frame is the one that shows the update.
        requestAnimationFrame(() => window.__lat.push(performance.now() - t0));
      }
    }).observe(app, { attributes: true, attributeFilter: ['data-analyzed-rev', 'data-rev'] });
    el.addEventListener('keydown', () => {
      pending = { t0: performance.now(), rev0: Number(app.dataset.rev) };
    });
  }, selector);
  await page.focus(selector);
  for (let i = 0; i < KEYSTROKES; i++) {
    await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
    await page.waitForFunction((n) => window.__lat.length > n, i, { polling: 10 });
    // Typing cadence, not a wait for the page: a person types a key every 50 ms or more.
    await page.waitForTimeout(50);
  }
  return {
    keystrokeToUpdate: stats(await page.evaluate(() => window.__lat)),
    analysisAlone: stats(await page.evaluate(() => window.__work)),
  };
}

const gateway = await startGateway();
const browser = await launchBrowser();
try {
  const result = { sizes: sizes() };

  // Time to interactive: navigation start to the first validation shown (the app responding),
  // in fresh contexts (cold HTTP cache; the gateway on loopback).
  const tti = [];
  for (let i = 0; i < 7; i++) {
    const { page, context } = await openPlayground(browser, gateway.base);
    tti.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  result.timeToInteractiveMs = stats(tti);

  // Keystroke latency per provider view, the same edits with and without a 5 MB image.
  const image = Buffer.alloc(IMAGE_BYTES);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(image);
  const text = { type: 'text', text: 'Describe this.' };
  const bodies = {
    withoutMedia: { input: [text] },
    withImage: { input: [text, { type: 'image', source: { type: 'base64', format: 'png', data: image.toString('base64') } }] },
  };
  const { page, context } = await openPlayground(browser, gateway.base);
  await page.$eval('.settings', (d) => (d.open = true));
  const providers = await page.$$eval('[data-testid="provider-select"] option', (os) => os.map((o) => o.value));
  const only = process.env.PROVIDERS?.split(',');
  result.keystrokes = {};
  for (const provider of providers.filter((p) => !only || only.includes(p))) {
    await page.selectOption('[data-testid="provider-select"]', provider);
    const row = {};
    for (const [name, body] of Object.entries(bodies)) {
      await showForm(page, 'json');
      await page.$eval('[data-testid="json-editor"]', (el, t) => {
        el.value = t;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, JSON.stringify(body, null, 2));
      await settled(page);
      await showForm(page, 'blocks');
      await settled(page);
      const form = await typeLatency(page, '[data-path="/input/0/text"]');
      await showForm(page, 'json');
      await settled(page);
      // Put the caret inside the text block's string.
      await page.$eval('[data-testid="json-editor"]', (el) => {
        const at = el.value.indexOf('Describe this.') + 8;
        el.setSelectionRange(at, at);
      });
      const jsonEditor = await typeLatency(page, '[data-testid="json-editor"]');
      const outputChars = await page.$eval('[data-testid="converse-output"]', (el) => el.textContent.length);
      row[name] = { form, jsonEditor, outputChars };
    }
    result.keystrokes[provider] = row;
  }
  await context.close();

  const table = ['| provider view | form, no media | form, 5 MB image | ratio | JSON, no media | JSON, 5 MB image | ratio | pane chars (image) |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const [provider, { withoutMedia: a, withImage: b }] of Object.entries(result.keystrokes)) {
    const m = (x) => x.keystrokeToUpdate.median;
    const w = (x) => x.analysisAlone.median;
    table.push(
      `| ${provider} | ${m(a.form)} (${w(a.form)}) | ${m(b.form)} (${w(b.form)}) | ${(m(b.form) / m(a.form)).toFixed(2)}× ` +
        `| ${m(a.jsonEditor)} (${w(a.jsonEditor)}) | ${m(b.jsonEditor)} (${w(b.jsonEditor)}) | ${(m(b.jsonEditor) / m(a.jsonEditor)).toFixed(2)}× | ${b.outputChars} |`,
    );
  }
  result.keystrokesEach = KEYSTROKES;
  result.imageBytes = IMAGE_BYTES;
  writeFileSync(join(artifacts, 'measurements.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify({ sizes: result.sizes, timeToInteractiveMs: result.timeToInteractiveMs }, null, 2));
  console.log(`\nkeystroke → update, median ms (analysis alone in brackets), ${KEYSTROKES} keystrokes each:\n${table.join('\n')}`);
} finally {
  await browser.close();
  await gateway.stop();
}
