// The playground's first download (at most 400 KB gzip): everything Chromium fetches from the site
// until the app is interactive (the first validation shown) — the HTML, the JavaScript, the CSS,
// the WebAssembly, whatever else the page asks for — each file counted at gzip -9, as
// scripts/build-site and web/README.md count it. What is loaded on demand (the schema validator,
// the registration planner with the Deploy view, the importers with the Import view, the JSON
// editor's line numbers, "Copy as code", the drawing of "Shrink to fit") must not be among them; the registration planner and the Deploy view
// must arrive when "Deploy to OpenSearch" is first opened, and plan. Sizes are GNU gzip's
// (`gzip -9 -c FILE | wc -c`, the figure scripts/build-site prints); Node's zlib at level 9 makes
// the .wasm about 1 % larger.
//
// Run: node --test tests/playground/first-load.test.mjs   (after scripts/build-site)

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { launchBrowser, openPlayground, site, startGateway } from './support.mjs';

// gzip -9 bytes: 426,422 by scripts/build-site's count with provider fields in the core and the
// Provider fields setting (414,492 with the model field, provider item cards, every agent type in
// Deploy and the "Shrink to fit" button; 367,404 with the chat workbench alone), its views built
// type-erased (Leptos' `--cfg erase_components`, scripts/build-site; docs/decisions/playground.md).
const BUDGET = 435_000;

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

/** The site's file behind a same-origin URL (`/` is index.html). */
function siteFile(url) {
  const path = decodeURIComponent(new URL(url).pathname);
  return join(site, path === '/' ? 'index.html' : path.replace(/^\//, ''));
}

test(`the first load is at most ${BUDGET} B gzip -9, without the on-demand modules`, async () => {
  const { page, context, seen } = await openPlayground(browser, gateway.base);
  try {
    // What the browser fetches on its own after the page is interactive counts too: the icon
    // the page declares comes last, once the page has loaded.
    await page.waitForLoadState('load');
    const icon = new URL(await page.getAttribute('link[rel="icon"]', 'href'), `${gateway.base}/`).href;
    if (!seen.finished.includes(icon)) {
      await page.waitForEvent('requestfinished', { predicate: (r) => r.url() === icon });
    }
    const fetched = [...new Set(seen.requests.filter((u) => u.startsWith(gateway.base)))];
    const files = fetched.map((url) => {
      const file = siteFile(url);
      assert.ok(existsSync(file), `${url} is not a file of the site (${file})`);
      const gzip = execFileSync('gzip', ['-9', '-c', file], { maxBuffer: 64 << 20 }).length;
      return { url: url.slice(gateway.base.length), raw: readFileSync(file).length, gzip };
    });
    const names = files.map((f) => f.url);
    for (const needed of ['/', '/playground_bg.wasm', '/playground.js', '/boot.js', '/style.css', '/favicon.svg']) {
      assert.ok(names.includes(needed), `${needed} was not fetched: ${names.join(', ')}`);
    }
    for (const onDemand of ['schema/', 'register/', 'import/', 'editor/', 'export/', 'shrink/']) {
      assert.deepEqual(names.filter((n) => n.includes(onDemand)), [], `${onDemand} is loaded on demand only`);
    }
    const total = files.reduce((sum, f) => sum + f.gzip, 0);
    const table = files.map((f) => `${f.url} ${f.raw} B raw, ${f.gzip} B gzip`).join('\n');
    console.log(`first load: ${total} B gzip -9 (budget ${BUDGET})\n${table}`);
    assert.ok(total <= BUDGET, `the first load is ${total} B gzip, over the budget of ${BUDGET} B:\n${table}`);
  } finally {
    await context.close();
  }
});

test('"Deploy to OpenSearch" loads the registration planner and its view when first opened, and plans with it', async () => {
  const { page, context, seen } = await openPlayground(browser, gateway.base);
  try {
    const planner = () => seen.requests.filter((u) => u.includes('/register/'));
    assert.deepEqual(planner(), []);
    assert.equal(await page.locator('[data-testid="deploy-body"]').count(), 0);
    await page.click('[data-testid="deploy"] summary');
    await page.waitForSelector('[data-testid="deploy-step"]');
    assert.deepEqual(planner().map((u) => new URL(u).pathname).sort(), [
      '/register/agent_input_register.js',
      '/register/agent_input_register_bg.wasm',
      '/register/deploy_view.js',
    ]);
    // The default settings (Bedrock Converse, ml-commons 3.9): the one unified call.
    assert.equal(await page.getAttribute('[data-testid="deploy-status"]', 'data-api'), 'unified');
    const paths = await page.$$eval('[data-testid="deploy-step"]', (ls) => ls.map((l) => l.dataset.path));
    assert.deepEqual(paths, ['/_plugins/_ml/agents/_register']);
    // Closed and opened again: the module is not fetched twice, and the plan follows edits.
    await page.click('[data-testid="deploy"] summary');
    await page.click('[data-testid="deploy"] summary');
    await page.selectOption('[data-testid="deploy-version"]', '3.4');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="deploy-step"]').length === 3);
    assert.equal(planner().length, 3);
    assert.deepEqual(seen.errors, []);
  } finally {
    await context.close();
  }
});

test('a planner that fails to load says so, and opening the view again retries', async () => {
  const { page, context, seen } = await openPlayground(browser, gateway.base);
  try {
    await page.route('**/register/agent_input_register_bg.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.click('[data-testid="deploy"] summary');
    await page.waitForSelector('[data-testid="deploy-load-failed"]');
    assert.match(await page.textContent('[data-testid="deploy-load-failed"]'), /The registration planner did not load: .+ Close and open the view to try again\./);
    assert.equal(await page.locator('[data-testid="deploy-step"]').count(), 0);
    await page.unroute('**/register/agent_input_register_bg.wasm');
    await page.click('[data-testid="deploy"] summary');
    await page.click('[data-testid="deploy"] summary');
    await page.waitForSelector('[data-testid="deploy-step"]');
    assert.equal(await page.locator('[data-testid="deploy-load-failed"]').count(), 0);
    assert.deepEqual(seen.errors, []);
  } finally {
    await context.close();
  }
});
