// "Import a provider request": the view's contents, loaded with agent-input/import's module the
// first time the view is opened (modules.js), so neither is part of the first download.
// A pasted body, or a curl command carrying one (its body from -d/--data/--data-raw/--data-binary,
// its provider from the URL's path), is read by `importRequest`; the app is handed the standard
// request and the options (`apply`), and the losses are listed at their JSON Pointers into the
// pasted body. The providers, their names and how each is recognised (an endpoint's URL, a body's
// shape) are the module's: this script names none.

import { providerForBody, providerForUrl, providers } from './agent_input_import.js';

/** A command line split as a POSIX shell splits it (quotes, backslashes, continued lines). */
export function shellWords(text) {
  const words = [];
  let word = '';
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      started = true;
      const end = text.indexOf("'", i + 1);
      word += text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (c === '"') {
      started = true;
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && '"\\$`'.includes(text[i + 1])) word += text[++i];
        else if (text[i] === '\\' && text[i + 1] === '\n') i++;
        else word += text[i];
      }
    } else if (c === '\\') {
      const next = text[++i];
      if (next === '\r' && text[i + 1] === '\n') i++;
      else if (next !== undefined && next !== '\n' && next !== '\r') {
        started = true;
        word += next;
      }
    } else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      started = true;
      word += c;
    }
  }
  if (started) words.push(word);
  return words;
}

const DATA = ['-d', '--data', '--data-raw', '--data-binary', '--data-ascii'];
const SKIP = ['-H', '--header', '-X', '--request', '-u', '--user', '-o', '--output'];

/**
 * The pasted text taken apart: `{ body, provider, from }`, `from` saying what named the provider
 * (`'url'`, a curl command's URL; `'shape'`, the body's shape) or `null` when nothing did.
 */
export function readPasted(text) {
  let body = text;
  let url = null;
  if (/^\s*curl\s/.test(text)) {
    const words = shellWords(text.trim());
    body = '';
    for (let i = 1; i < words.length; i++) {
      const w = words[i];
      const eq = w.indexOf('=');
      if (DATA.includes(w)) body = words[++i] ?? '';
      else if (w.startsWith('--') && eq > 0 && DATA.includes(w.slice(0, eq))) body = w.slice(eq + 1);
      else if (w.startsWith('-d') && !w.startsWith('--')) body = w.slice(2);
      else if (w === '--url') url = words[++i] ?? null;
      else if (/^https?:\/\//.test(w)) url = w;
      else if (SKIP.includes(w)) i++;
    }
  }
  const byUrl = url && providerForUrl(url);
  if (byUrl) return { body, provider: byUrl, from: 'url' };
  const byShape = body.trim() ? providerForBody(body) : null;
  return { body, provider: byShape, from: byShape ? 'shape' : null };
}

/** A system message's text, when it is only text. */
function plainText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || !content.every((b) => b?.type === 'text' && typeof b.text === 'string')) return null;
  return content.map((b) => b.text).join('\n');
}

/**
 * The request and the settings' fields an import leads to: the provider becomes the one the
 * request was for (so the reasoning it kept, which only that provider takes back, is sent); a
 * leading system message of text becomes the system prompt (the same request for every
 * provider; a single user text left is the text form, as the core writes it), and every option
 * fills its field (the others emptied).
 */
export function settle(request, options, provider) {
  const input = request.input;
  let system = typeof options.system === 'string' ? options.system : '';
  if (Array.isArray(input) && input.length > 1 && String(input[0]?.role).toLowerCase() === 'system') {
    const text = plainText(input[0].content);
    if (text !== null) {
      system = text;
      input.shift();
      const only = input.length === 1 && input[0].role === 'user' ? plainText(input[0].content) : null;
      if (only !== null) request.input = only;
    }
  }
  const str = (v) => (v === undefined || v === null ? '' : String(v));
  const choice = options.tool_choice;
  const cache = options.prompt_cache;
  const format = options.response_format;
  const reasoning = options.reasoning;
  const budget = reasoning?.budget_tokens;
  return {
    request,
    fields: [
      ['#provider', provider],
      ['#system-prompt', system],
      ['#max-tokens', str(options.max_tokens)],
      ['#temperature', str(options.temperature)],
      ['#top-p', str(options.top_p)],
      ['#stop-sequences', (options.stop_sequences ?? []).join('\n')],
      ['#model', str(options.model)],
      ['#tools', options.tools ? JSON.stringify(options.tools, null, 2) : ''],
      ['#provider-fields', options.provider_fields ? JSON.stringify(options.provider_fields, null, 2) : ''],
      ['#tool-choice', choice && typeof choice === 'object' ? 'tool' : str(choice)],
      ['#tool-choice-name', choice && typeof choice === 'object' ? str(choice.name) : ''],
      ['[data-testid="prompt-cache"]', cache === true || (cache !== null && typeof cache === 'object')],
      ['#prompt-cache-ttl', cache && typeof cache === 'object' ? str(cache.ttl) : ''],
      ['#response-schema', format?.schema === undefined ? '' : JSON.stringify(format.schema, null, 2)],
      ['#response-name', str(format?.name)],
      ['#reasoning', budget !== undefined ? 'budget' : str(reasoning?.effort)],
      ['#reasoning-budget', str(budget)],
    ],
  };
}

/** What a reasoning state holds, in words: "1 thinking block", "2 thought signatures". */
function describeState(state) {
  const kindOf = (item) => {
    const block = item.block;
    if (block?.type === 'reasoning') return 'reasoning item';
    if (typeof block?.type === 'string') return `${block.type.replaceAll('_', ' ')} block`;
    if (block?.thought) return 'thought part';
    if (block?.reasoningContent) return 'reasoning content block';
    if (item.thoughtSignature !== undefined) return 'thought signature';
    return item.id !== undefined ? 'id' : 'item';
  };
  const counts = new Map();
  for (const item of state.items ?? []) counts.set(kindOf(item), (counts.get(kindOf(item)) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${n} ${name}${n === 1 ? '' : 's'}`).join(', ');
}

/** The reasoning an import kept: each assistant message's state, as `[index, words]`. */
export function keptReasoning(request) {
  const input = Array.isArray(request?.input) ? request.input : [];
  return input.flatMap((m, i) => (m?.reasoningState ? [[i, describeState(m.reasoningState)]] : []));
}

/** Types a value into a settings field, as the user would. */
function type(selector, value) {
  const field = document.querySelector(selector);
  if (!field) return;
  if (typeof value === 'boolean') field.checked = value;
  else field.value = value;
  field.dispatchEvent(new Event(field.tagName === 'INPUT' && field.type !== 'checkbox' || field.tagName === 'TEXTAREA' ? 'input' : 'change', { bubbles: true }));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/**
 * Draws the view into `host`. `importRequest` is the module's; `apply` puts a standard request
 * (JSON text) into the editor.
 */
export function mount(host, importRequest, apply) {
  const known = providers();
  const nameOf = (id) => known.find((p) => p.id === id)?.name ?? id;
  const names = known.map((p) => p.name);
  const text = el('textarea', { id: 'import-text', class: 'code', 'data-testid': 'import-text', rows: '6', spellcheck: 'false' });
  const select = el('select', { id: 'import-provider', 'data-testid': 'import-provider' }, el('option', { value: '' }, 'Detect'));
  for (const { id, name } of known) select.append(el('option', { value: id }, name));
  const detected = el('p', { class: 'hint', 'data-testid': 'import-detected' });
  const button = el('button', { type: 'button', 'data-testid': 'import-button' }, 'Import');
  const status = el('p', { class: 'status', role: 'status', 'data-testid': 'import-status' });
  const list = el('ul', { class: 'diagnostics', 'data-testid': 'import-problems' });
  const keptList = el('ul', { class: 'kept', 'data-testid': 'import-kept', 'aria-label': 'Reasoning kept' });
  const detect = () => {
    const { provider, from } = readPasted(text.value);
    detected.textContent = provider
      ? `Detected: ${nameOf(provider)} (from the ${from === 'url' ? 'curl command' : "body's shape"})`
      : text.value ? 'No provider detected: choose one.' : '';
  };
  text.addEventListener('input', detect);
  button.addEventListener('click', () => {
    const pasted = readPasted(text.value);
    const provider = select.value || pasted.provider;
    list.replaceChildren();
    keptList.replaceChildren();
    if (!provider) {
      status.textContent = 'Choose the provider this request is for.';
      return;
    }
    const report = importRequest(provider, pasted.body);
    const losses = [...report.errors.map((d) => ['error', d]), ...report.warnings.map((d) => ['warning', d])];
    for (const [severity, d] of losses) {
      list.append(
        el('li', { 'data-testid': 'import-problem', 'data-code': d.code, 'data-path': d.path, 'data-severity': severity, class: severity },
          el('span', { class: 'badge' }, severity), ' ',
          el('code', { class: 'code-name' }, d.code), ' ',
          el('code', { class: 'path' }, d.path || '/'), ' ',
          el('span', { class: 'message' }, d.message)),
      );
    }
    if (report.request === null) {
      status.textContent = 'Nothing imported: the body is not JSON.';
      return;
    }
    const kept = keptReasoning(report.request);
    for (const [i, words] of kept) {
      keptList.append(el('li', { 'data-testid': 'import-kept-item', 'data-index': String(i) },
        `Message ${i + 1}: ${words}, sent back to ${nameOf(provider)} only`));
    }
    const { request, fields } = settle(report.request, report.options, provider);
    apply(JSON.stringify(request));
    for (const [selector, value] of fields) type(selector, value);
    // An effort the settings do not offer is said, not lost without a word.
    const effort = fields.find(([selector]) => selector === '#reasoning')?.[1];
    const offered = [...(document.querySelector('#reasoning')?.options ?? [])].map((o) => o.value);
    if (effort && !offered.includes(effort)) {
      list.append(el('li', { 'data-testid': 'import-problem', 'data-code': 'setting_not_offered', 'data-path': '/options/reasoning', 'data-severity': 'warning', class: 'warning' },
        el('span', { class: 'badge' }, 'warning'), ' ',
        el('span', { class: 'message' }, `The Reasoning setting offers no "${effort}" effort: the request is shown with the provider's default.`)));
      losses.push(['warning', null]);
    }
    // Every option the import gave has a setting; one that has none is said, not lost.
    const placed = ['system', 'max_tokens', 'temperature', 'top_p', 'stop_sequences', 'tools', 'tool_choice',
      'prompt_cache', 'response_format', 'reasoning', 'model', 'provider_fields'];
    for (const key of Object.keys(report.options ?? {}).filter((k) => !placed.includes(k))) {
      list.append(el('li', { 'data-testid': 'import-problem', 'data-code': 'setting_not_offered', 'data-path': `/options/${key}`, 'data-severity': 'warning', class: 'warning' },
        el('span', { class: 'badge' }, 'warning'), ' ',
        el('span', { class: 'message' }, `The settings have no field for the option "${key}": the request is shown without it.`)));
      losses.push(['warning', null]);
    }
    const n = losses.length;
    status.textContent = `Imported the ${nameOf(provider)} request${n === 0 ? ' with nothing lost' : `: ${n} problem${n === 1 ? '' : 's'}, below`}; the provider is now ${nameOf(provider)}.`;
  });
  host.replaceChildren(
    el('p', { class: 'hint' }, `Paste a request body of ${names.slice(0, -1).join(', ')} or ${names.at(-1)}, or a curl command carrying one. The standard request goes into the editor and its options into the settings; what the standard input cannot carry is listed, at its place in what you pasted.`),
    el('div', { class: 'field' }, el('label', { for: 'import-text' }, 'Request body or curl command'), text),
    el('div', { class: 'row' }, el('div', { class: 'field' }, el('label', { for: 'import-provider' }, 'Provider'), select), detected),
    button, status, keptList, list,
  );
}
