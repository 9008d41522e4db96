// The playground in the two other engines people use, beside the Chromium suite
// (tests/playground): Firefox ESR through WebDriver BiDi (puppeteer-core) and WebKitGTK through
// WebKitWebDriver (WebDriver classic, a small client over fetch) under Xvfb. Each loads the page,
// validates an input, converts it for another provider, executes it against agent-gateway's echo
// agent and imports a provider request: the same steps, the same checks, in page scripts.
//
// Run: node --test tests/engines/   (after scripts/build-site and cargo build -p agent-gateway)
// FIREFOX, WEBKIT_WEBDRIVER and MINIBROWSER name other binaries.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import puppeteer from 'puppeteer-core';

import { freePort, startGateway } from '../gateway.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const site = process.env.PLAYGROUND_SITE ?? join(repo, 'target', 'site');
const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
const WEBKIT_WEBDRIVER = process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const TIMEOUT_MS = 30_000;

/** Polls `check` (a page script's value) until it is truthy, or fails saying `what`. */
async function until(driver, what, check) {
  const deadline = Date.now() + TIMEOUT_MS;
  let last;
  for (;;) {
    last = await driver.run(check);
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Page scripts (a function body; `arguments[0]` the argument), the same in both engines.
const SET = `
  const [selector, value] = arguments[0];
  const el = document.querySelector(selector);
  if (!el) return false;
  el.value = value;
  el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
  return true;`;
const CLICK = `
  const el = document.querySelector(arguments[0]);
  if (!el) return false;
  el.click();
  return true;`;
const TEXT = `return document.querySelector(arguments[0])?.textContent ?? null;`;
const SETTLED = `
  const app = document.querySelector('.app');
  return !!app && app.dataset.rev === app.dataset.analyzedRev;`;

/** The smoke run's steps, for a driver with `open(url)` and `run(script, arg)`. */
async function smoke(driver, base) {
  await driver.open(`${base}/`);
  await until(driver, 'the app', `return !!document.querySelector('[data-testid="validation-summary"]');`);
  await until(driver, 'the first analysis', SETTLED);

  // Validate: an empty text input is an error; a greeting is valid input Bedrock takes.
  assert.ok(await driver.run(CLICK, '[data-testid="form-json"]'));
  await until(driver, 'the JSON editor', `return !!document.querySelector('#json-panel:not(.hidden) [data-testid="json-editor"]');`);
  assert.ok(await driver.run(SET, ['[data-testid="json-editor"]', '{"input": ""}']));
  await until(driver, 'the error verdict', `
    const s = document.querySelector('[data-testid="validation-summary"]');
    return s.dataset.tone === 'invalid' && s.textContent;`);
  assert.ok(await driver.run(SET, ['[data-testid="json-editor"]', '{"input": "Hello from another engine"}']));
  const valid = await until(driver, 'the valid verdict', `
    const s = document.querySelector('[data-testid="validation-summary"]');
    return s.dataset.tone === 'valid' && s.textContent;`);
  assert.equal(valid, 'Valid input · TEXT · Bedrock Converse takes it');

  // Convert: OpenAI Chat Completions' body holds the text as a user message.
  assert.ok(await driver.run(SET, ['[data-testid="provider-select"]', 'openai-chat']));
  const converted = await until(driver, 'the OpenAI request', `
    const out = document.querySelector('[data-testid="converse-output"]')?.textContent ?? '';
    return document.querySelector('[data-testid="output-provider"]').textContent === 'OpenAI Chat Completions' && out.includes('"messages"') && out;`);
  assert.deepEqual(JSON.parse(converted).messages.at(-1), { role: 'user', content: 'Hello from another engine' });

  // Execute against the echo agent, streamed: a finished turn whose answer counts one message.
  assert.ok(await driver.run(CLICK, '[data-testid="execute-button"]'));
  await until(driver, 'the finished turn', `return !!document.querySelector('[data-testid="chat-assistant"][data-status="finished"]');`);
  assert.match(await driver.run(TEXT, '[data-testid="chat-answer"]'), /^echo: 1 message \(user\)/);
  const next = await until(driver, 'the next turn waiting', `
    const s = document.querySelector('[data-testid="validation-summary"]');
    return s.dataset.tone === 'waiting' && s.textContent;`);
  assert.match(next, /^Ready for the next turn \(continuing conversation .+\)$/);

  // Import an Anthropic Messages request: the editor holds its text.
  assert.ok(await driver.run(`
    const d = document.querySelector('[data-testid="import"]');
    d.open = true;
    d.dispatchEvent(new Event('toggle'));
    return true;`));
  await until(driver, 'the import view', `return !!document.querySelector('[data-testid="import-button"]');`);
  const pasted = JSON.stringify({ model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'Imported words' }] });
  assert.ok(await driver.run(SET, ['[data-testid="import-text"]', pasted]));
  assert.ok(await driver.run(SET, ['[data-testid="import-provider"]', 'anthropic-messages']));
  assert.ok(await driver.run(CLICK, '[data-testid="import-button"]'));
  await until(driver, 'the imported input', `
    return [...document.querySelectorAll('.form-area [data-path]')].some((el) => el.value === 'Imported words')
      || (document.querySelector('[data-testid="json-editor"]')?.value ?? '').includes('Imported words');`);
  await until(driver, 'the analysis after the import', SETTLED);
  const errors = await driver.run(`return window.__errors ?? [];`);
  assert.deepEqual(errors, []);
}

/** Records the page's uncaught errors (run once the page is open). */
const WATCH_ERRORS = `
  window.__errors = [];
  window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
  window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));
  return true;`;

/** A WebDriver classic session over fetch (the commands the smoke run needs). */
async function webdriverSession(base, capabilities) {
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${response.status} ${JSON.stringify(answer.value ?? answer)}`);
    return answer.value;
  };
  const { sessionId } = await call('POST', '/session', { capabilities: { alwaysMatch: capabilities } });
  return {
    open: async (url) => {
      await call('POST', `/session/${sessionId}/url`, { url });
      await call('POST', `/session/${sessionId}/execute/sync`, { script: WATCH_ERRORS, args: [] });
    },
    run: (script, arg) => call('POST', `/session/${sessionId}/execute/sync`, { script, args: arg === undefined ? [] : [arg] }),
    close: () => call('DELETE', `/session/${sessionId}`).catch(() => {}),
  };
}

/** Waits until `url` answers at all. */
async function reachable(url) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('the playground in Firefox ESR and WebKitGTK', () => {
  let gateway;

  before(async () => {
    if (!existsSync(join(site, 'index.html'))) throw new Error(`${site}/index.html is missing; run scripts/build-site`);
    gateway = await startGateway(['--site', site]);
  });

  after(async () => {
    await gateway?.stop();
  });

  test('Firefox ESR (WebDriver BiDi): load, validate, convert, Execute against echo, Import', async () => {
    assert.ok(existsSync(FIREFOX), `${FIREFOX} is missing: apt-get install firefox-esr (scripts/setup)`);
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      const driver = {
        open: async (url) => {
          await page.goto(url);
          await page.evaluate(new Function(WATCH_ERRORS));
        },
        // The same function bodies as WebDriver's execute: `arguments[0]` is the argument.
        run: (script, arg) => page.evaluate(new Function(script), ...(arg === undefined ? [] : [arg])),
      };
      await smoke(driver, gateway.base);
    } finally {
      await browser.close();
    }
  });

  test('WebKitGTK (WebKitWebDriver, MiniBrowser under Xvfb): load, validate, convert, Execute against echo, Import', async () => {
    assert.ok(existsSync(WEBKIT_WEBDRIVER), `${WEBKIT_WEBDRIVER} is missing: apt-get install webkit2gtk-driver (scripts/setup)`);
    assert.ok(existsSync(MINIBROWSER), `${MINIBROWSER} is missing (libwebkit2gtk-4.1-0's MiniBrowser)`);
    const port = await freePort();
    // xvfb-run gives the browser a display; -a picks a free one.
    // In its own process group, so that ending it ends Xvfb and the browser too.
    const server = spawn('xvfb-run', ['-a', WEBKIT_WEBDRIVER, `--port=${port}`], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    server.stderr.on('data', (d) => (stderr += d));
    const base = `http://127.0.0.1:${port}`;
    let session;
    try {
      await reachable(`${base}/status`);
      session = await webdriverSession(base, {
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
      });
      await smoke(session, gateway.base);
    } catch (error) {
      error.message += stderr ? `\nWebKitWebDriver said: ${stderr.slice(-2000)}` : '';
      throw error;
    } finally {
      await session?.close();
      const exited = new Promise((r) => server.once('exit', r));
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await exited;
    }
  });
});
