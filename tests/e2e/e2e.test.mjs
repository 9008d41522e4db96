// The npm package in a real browser. One consumer page (app/) that imports 'agent-input' is
// built with Vite and with webpack, loaded as a plain <script type="module"> with an import map,
// and served by Vite's dev server, from a project that installed the packed tarball. Each is
// served from 127.0.0.1 by this test and driven in Debian's headless Chromium (playwright-core,
// no browser download): the page validates and converts on load, then the test edits the request
// and clicks. Screenshots go to target/e2e/ (or E2E_ARTIFACTS).
//
// Run: node --test tests/e2e/   (after scripts/build-npm)

import assert from 'node:assert/strict';
import { createReadStream, cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';
import { createServer as viteServer, build as viteBuild } from 'vite';
import webpack from 'webpack';

import { installPackage } from '../node/install.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const artifacts = process.env.E2E_ARTIFACTS ?? join(repo, 'target', 'e2e');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let project;
let server;
let devServer;
let base;
let devBase;
let browser;
const roots = {};

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css',
};

/** Serves /<name>/<path> from roots[name]; nothing else. */
function serve(request, response) {
  const url = new URL(request.url, 'http://127.0.0.1');
  const [, name, ...rest] = decodeURIComponent(url.pathname).split('/');
  const root = roots[name];
  const file = root && normalize(join(root, ...rest));
  if (!file || !file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
    response.writeHead(404).end('not found');
    return;
  }
  response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(response);
}

function runWebpack(config) {
  return new Promise((resolvePromise, reject) => {
    webpack(config, (error, stats) => {
      if (error) reject(error);
      else if (stats.hasErrors()) reject(new Error(stats.toString('errors-only')));
      else resolvePromise(stats);
    });
  });
}

before(async () => {
  project = installPackage({ prefix: 'agent-input-e2e-' });
  const app = join(project, 'app');
  cpSync(join(here, 'app'), app, { recursive: true });

  // Vite, with no configuration of its own.
  const viteOut = join(project, 'dist-vite');
  await viteBuild({ root: app, base: './', configFile: false, logLevel: 'warn', build: { outDir: viteOut, emptyOutDir: true } });

  // webpack 5 with its defaults: a classic script, the .wasm emitted as an asset.
  const webpackOut = join(project, 'dist-webpack');
  await runWebpack({ mode: 'production', context: app, entry: './main.js', output: { path: webpackOut, clean: true } });
  const classic = readFileSync(join(app, 'index.html'), 'utf8').replace(
    '<script type="module" src="./main.js"></script>',
    '<script defer src="./main.js"></script>',
  );
  assert.notEqual(classic, readFileSync(join(app, 'index.html'), 'utf8'));
  writeFileSync(join(webpackOut, 'index.html'), classic);

  // A plain page: the browser resolves 'agent-input' through an import map, no bundler.
  const html = readFileSync(join(app, 'index.html'), 'utf8').replace(
    '</title>',
    '</title>\n    <script type="importmap">{"imports": {"agent-input": "../node_modules/agent-input/index.js", "agent-input/schema": "../node_modules/agent-input/schema.js"}}</script>',
  );
  writeFileSync(join(app, 'plain.html'), html);

  // Vite's dev server, configured as the package's README says: dependency pre-bundling would
  // move the module away from its .wasm.
  devServer = await viteServer({
    root: app,
    configFile: false,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
    optimizeDeps: { exclude: ['agent-input', 'agent-input/schema'] },
  });
  await devServer.listen();
  devBase = devServer.resolvedUrls.local[0].replace(/\/$/, '');

  Object.assign(roots, { vite: viteOut, webpack: webpackOut, plain: project });
  server = createServer(serve);
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;

  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  mkdirSync(artifacts, { recursive: true });
});

after(async () => {
  await browser?.close();
  await devServer?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
  if (project) rmSync(project, { recursive: true, force: true });
});

const TARGETS = [
  ['Vite', () => `${base}/vite/index.html`],
  ['webpack', () => `${base}/webpack/index.html`],
  ['plain module script', () => `${base}/plain/app/plain.html`],
  ['Vite dev server', () => `${devBase}/index.html`],
];

for (const [via, url] of TARGETS) {
  describe(via, () => {
    let page;
    const problems = [];

    before(async () => {
      page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
      page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
      await page.goto(`${url()}?via=${encodeURIComponent(via)}`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
    });

    after(async () => {
      await page?.close();
    });

    test('the page validates and converts on load', async () => {
      const results = await page.evaluate(() => window.agentInputResults);
      assert.match(results.version, /^\d+\.\d+\.\d+/);
      assert.equal(results.report.valid, false);
      assert.equal(results.report.inputType, 'CONTENT_BLOCKS');
      assert.deepEqual(
        results.report.errors.map((e) => [e.code, e.path]),
        [['unsupported_format', '/input/1/source/format'], ['missing_field', '/input/3/source']],
      );
      assert.deepEqual(
        results.report.warnings.map((w) => [w.code, w.path]).sort(),
        [['field_ignored', '/input/3/sorce'], ['format_normalized', '/input/2/source/format']].sort(),
      );
      assert.deepEqual(results.converted, { ok: true, bytes: 1_333_336, sameAsJson: true, bodyIsText: true });
      assert.deepEqual(results.small.body, {
        messages: [{ role: 'user', content: [{ text: 'What is OpenSearch?' }] }],
        system: [{ text: 'Be brief.' }],
        inferenceConfig: { maxTokens: 256, temperature: 0.2 },
      });
      assert.equal(results.question, 'What is in this picture?\n');
      assert.equal(results.inputType, 'CONTENT_BLOCKS');
      assert.equal(results.refused.ok, false);
      assert.equal(results.refused.errors[0].code, 'url_not_supported_by_provider');
      assert.deepEqual(results.schema, {
        formatted: { ok: true, prompt: '<inputs>\ntopic: AI\n</inputs>\n\nWrite.', errors: [], warnings: [] },
        violation: [['schema_violation', '/parameters/topic', '/properties/topic/type']],
      });
      assert.match(await page.textContent('#version'), /^\d+\.\d+\.\d+/);
      assert.equal(await page.locator('#diagnostics tr.error').count(), 2);
      assert.equal(await page.locator('#diagnostics tr.warning').count(), 2);
    });

    test('editing the request and clicking validates and converts it', async () => {
      const request = {
        input: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Seattle?' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }] },
          { role: 'user', content: [{ type: 'text', text: 'Thanks' }, { type: 'image', source: { type: 'url', format: 'png', data: 'https://example.com/a.png' } }] },
        ],
      };
      await page.fill('#request', JSON.stringify(request, null, 2));
      await page.click('#validate');
      assert.equal(await page.textContent('#verdict'), 'valid');
      assert.equal(await page.textContent('#input-type'), 'MESSAGES');
      await page.click('#convert');
      assert.equal(await page.textContent('#converted'), '1 error(s)');
      assert.match(await page.textContent('#body'), /url_not_supported_by_provider at \/input\/2\/content\/1\/source\/data/);

      await page.fill('#request', JSON.stringify({ input: request.input.slice(0, 1) }));
      await page.click('#convert');
      assert.equal(await page.textContent('#converted'), 'ok');
      assert.deepEqual(JSON.parse(await page.textContent('#body')), {
        messages: [{ role: 'user', content: [{ text: 'Weather in Seattle?' }] }],
        inferenceConfig: { maxTokens: 512 },
      });

      await page.fill('#request', '{"input": [');
      await page.click('#validate');
      assert.equal(await page.textContent('#verdict'), 'invalid');
      assert.equal(await page.textContent('#diagnostics td.code'), 'invalid_json');

      // Back to the example for the screenshot.
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      const file = join(artifacts, `${via.replace(/\W+/g, '-').toLowerCase()}.png`);
      await page.screenshot({ path: file, fullPage: true });
      assert.ok(statSync(file).size > 10_000, 'a screenshot with something in it');
    });

    test('no console errors, page errors or failed requests', () => {
      assert.deepEqual(problems, []);
    });
  });
}
