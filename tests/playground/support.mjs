// What the playground tests share: a real agent-gateway on 127.0.0.1 (the built binary, a
// temporary database, the built site), Debian's headless Chromium, and screenshots.

import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { startGateway as startAnyGateway } from '../gateway.mjs';
import { jsonEq, subject } from '../node/support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '..', '..');
export const site = process.env.PLAYGROUND_SITE ?? join(repo, 'target', 'site');
export const artifacts = process.env.PLAYGROUND_ARTIFACTS ?? join(repo, 'target', 'playground');

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

export { freePort, gatewayBinary } from '../gateway.mjs';

/** Starts agent-gateway (../gateway.mjs) serving the built site. */
export async function startGateway(extra = []) {
  if (!existsSync(join(site, 'index.html'))) throw new Error(`${site}/index.html is missing; run scripts/build-site`);
  return startAnyGateway(['--site', site, ...extra]);
}

export async function launchBrowser() {
  mkdirSync(artifacts, { recursive: true });
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * Opens the playground in a fresh context. Collects console messages, page errors, CSP
 * violations and every requested URL (and those whose answer was read whole), for the security
 * checks.
 */
export async function openPlayground(browser, base, { width = 1280, height = 900, path = '/' } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const seen = { console: [], errors: [], requests: [], finished: [] };
  page.on('console', (m) => seen.console.push(m.text()));
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('request', (r) => seen.requests.push(r.url()));
  page.on('requestfinished', (r) => seen.finished.push(r.url()));
  await page.addInitScript(() => {
    // Counts what the page has written to the clipboard (`copied` waits for the next write).
    window.__copies = 0;
    const clipboard = navigator.clipboard;
    const write = clipboard.writeText.bind(clipboard);
    clipboard.writeText = (text) => write(text).then(() => {
      window.__copies += 1;
    });
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const started = Date.now();
  await page.goto(base + path);
  await page.waitForSelector('[data-testid="validation-summary"]');
  await settled(page);
  const interactiveMs = Date.now() - started;
  return { context, page, seen, interactiveMs };
}

/**
 * A gateway serving the site, Chromium, and the playground open in it (`openPlayground`'s
 * options); `close()` ends all three, as does a failure to start.
 */
export async function startPlayground(options) {
  let gateway;
  let browser;
  const close = async () => {
    await browser?.close();
    await gateway?.stop();
  };
  try {
    gateway = await startGateway();
    browser = await launchBrowser();
    return { ...(await openPlayground(browser, gateway.base, options)), gateway, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Waits until the analysis has caught up with the last edit. */
export async function settled(page) {
  await page.waitForFunction(() => {
    const app = document.querySelector('.app');
    return app && app.dataset.rev === app.dataset.analyzedRev;
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page as it is (WCAG 2.1 A and AA rules). */
export async function axe(page) {
  // Evaluated, not a script tag: the page's CSP allows no inline script.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

export async function shot(page, name) {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

/** The validation list as `{code, path, severity}` items. */
export function diagnostics(page, testid = 'validation-error') {
  return page.$$eval(`[data-testid="${testid}"]`, (items) =>
    items.map((li) => ({ code: li.dataset.code, path: li.dataset.path, severity: li.dataset.severity })),
  );
}

/**
 * Chooses an editor tab (`text`, `blocks`, `messages`, `legacy`, `json`) and waits until the
 * chosen editor is the one shown: fields of the form left behind (the content blocks list and
 * the text field both carry `/input`) are gone by then. A switch the playground refuses times out.
 */
export async function showForm(page, id) {
  await page.click(`[data-testid="form-${id}"]`);
  await page.waitForSelector(id === 'json' ? '.json-area:not(.hidden)' : `.form-area:not(.hidden) .form[data-form="${id}"]`);
}

/** The text form's input field (the content blocks and messages lists carry `/input` too). */
export const TEXT_INPUT = '.form[data-form="text"] [data-path="/input"]';

/** Types `text` into the text composer and runs it; waits for turn `n` (1-based) to finish. */
export async function sendTurn(page, text, n) {
  await page.fill(TEXT_INPUT, text);
  await settled(page);
  await page.click('[data-testid="execute-button"]');
  await page.waitForFunction((n) => {
    const turns = document.querySelectorAll('[data-testid="chat-assistant"]');
    return turns.length === n && turns[n - 1].dataset.status === 'finished';
  }, n);
  await settled(page);
}

/**
 * Clicks a copy button and returns the clipboard's text once the page has written it (the
 * clipboard may hold an earlier copy until then).
 */
export async function copied(page, selector) {
  const before = await page.evaluate(() => window.__copies);
  await page.click(selector);
  await page.waitForFunction((n) => window.__copies > n, before);
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Replaces the JSON editor's text the way typing does (an input event). */
export async function setJson(page, text) {
  await showForm(page, 'json');
  await page.$eval(
    '[data-testid="json-editor"]',
    (el, value) => {
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    text,
  );
  await settled(page);
}

export function cleanup(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The conversion settings' fields for a fixture's options (the output pane's fields, as typed),
 * or null when a field cannot hold them (a value the UI has no way to write).
 */
export function settingsFields(options = {}) {
  const f = {
    system: '', max_tokens: '', temperature: '', top_p: '', stop_sequences: '', tools: '', allow_prefill: false,
    tool_choice: '', tool_choice_name: '', prompt_cache: false, prompt_cache_ttl: '', response_schema: '', response_name: '',
    reasoning: '', reasoning_budget: '', model: '', provider_fields: '',
  };
  for (const [key, value] of Object.entries(options ?? {})) {
    if (key === 'system' && typeof value === 'string') f.system = value;
    else if (key === 'model' && typeof value === 'string' && value.trim() === value && value) f.model = value;
    else if (['max_tokens', 'temperature', 'top_p'].includes(key) && ['number', 'string'].includes(typeof value)) f[key] = String(value);
    else if (key === 'stop_sequences' && Array.isArray(value) && value.every((s) => typeof s === 'string' && s !== '' && !s.includes('\n'))) f.stop_sequences = value.join('\n');
    else if (key === 'tools') f.tools = JSON.stringify(value);
    else if (key === 'provider_fields') f.provider_fields = JSON.stringify(value);
    else if (key === 'allow_prefill' && typeof value === 'boolean') f.allow_prefill = value;
    else if (key === 'tool_choice') {
      if (value === 'required') f.tool_choice = 'any';
      else if (['auto', 'any', 'none'].includes(value)) f.tool_choice = value;
      else if (typeof value === 'string' && value.startsWith('tool:') && value.length > 5) {
        f.tool_choice = 'tool';
        f.tool_choice_name = value.slice(5);
      } else if (value && typeof value === 'object' && Object.keys(value).length === 1 && typeof value.name === 'string' && value.name.trim() === value.name && value.name) {
        f.tool_choice = 'tool';
        f.tool_choice_name = value.name;
      } else return null;
    } else if (key === 'prompt_cache') {
      if (value === true || value === 'true') f.prompt_cache = true;
      else if (value === false || value === 'false') f.prompt_cache = false;
      else if (value && typeof value === 'object' && Object.keys(value).length === 1 && ['5m', '1h'].includes(value.ttl)) {
        f.prompt_cache = true;
        f.prompt_cache_ttl = value.ttl;
      } else return null;
    } else if (key === 'reasoning') {
      const effort = typeof value === 'string' ? value : value?.effort;
      const budget = Number.isInteger(value) ? value : value?.budget_tokens;
      if (['low', 'medium', 'high'].includes(effort) && (typeof value === 'string' || Object.keys(value).length === 1)) f.reasoning = effort;
      else if (Number.isInteger(budget) && budget >= 0 && (Number.isInteger(value) || Object.keys(value).length === 1)) {
        f.reasoning = 'budget';
        f.reasoning_budget = String(budget);
      } else return null;
    } else if (key === 'response_format') {
      if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).some((k) => !['schema', 'name'].includes(k))) return null;
      if (value.schema === undefined || (value.name !== undefined && (typeof value.name !== 'string' || !value.name.trim() || value.name.trim() !== value.name))) return null;
      f.response_schema = JSON.stringify(value.schema);
      f.response_name = value.name ?? '';
    } else return null;
  }
  // An empty text field means "not set": a string that is empty or blank cannot be told apart.
  if (['max_tokens', 'temperature', 'top_p'].some((k) => k in (options ?? {}) && String(options[k]).trim() === '')) return null;
  return f;
}

const SHORTEN_OVER = 256; // web/src/model/display.rs
export const SHORTEN_KEEP = 48;

/** What the views show of a value: long base64 strings (and data: URLs' payloads) shortened. */
export function shortened(value) {
  if (typeof value === 'string') {
    // A data: URL (the OpenAI providers' media) keeps its prefix; its payload is shortened.
    const prefix = /^data:[^,]*;base64,/.exec(value.slice(0, SHORTEN_OVER))?.[0] ?? '';
    const payload = value.slice(prefix.length);
    return payload.length > SHORTEN_OVER && /^[A-Za-z0-9+/=_\-\r\n]*$/.test(payload)
      ? `${prefix}${payload.slice(0, SHORTEN_KEEP)}… [${payload.length} base64 characters]`
      : value;
  }
  if (Array.isArray(value)) return value.map(shortened);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortened(v)]));
  }
  return value;
}

/**
 * Compares a body a view shows (JSON text) with a provider fixture entry's `body` as the views
 * show it (shortened), pushing what differs onto `out` (`errors`: the conversion errors shown
 * instead, if any). Returns whether they are equal.
 */
export function checkShownBody(entry, text, errors, out, width = 800) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    out.push(`no body; conversion errors ${JSON.stringify(errors)}`);
    return false;
  }
  const want = shortened(subject({ request: entry.body }).value);
  if (jsonEq(want, body)) return true;
  out.push(`body differs\n  expected: ${JSON.stringify(want).slice(0, width)}\n  actual:   ${JSON.stringify(body).slice(0, width)}`);
  return false;
}
