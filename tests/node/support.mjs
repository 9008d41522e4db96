// Loading and checking the shared conformance fixtures (tests/README.md), the same way the Rust
// runner does (tests/support.rs): diagnostics compared as multisets of {code, path} with the
// optional fields a fixture gives, bodies compared as JSON values with numbers by value.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

const CASE_KEYS = new Set(['name', 'spec', 'request', 'bare', 'raw', 'limits', 'schema', 'expect']);
const EXPECT_KEYS = new Set(['valid', 'input_type', 'errors', 'warnings', 'question', 'formatted_prompt', 'convert']);

/**
 * Every case of every fixture file, as `{ file, name, case, exactRequest }`, in file order;
 * `exactRequest` is the case's request as JSON text with its numbers as the file writes them
 * (`300.0`, `1e16`), which JavaScript values cannot keep.
 */
export function loadAll() {
  const files = readdirSync(fixturesDir).filter((f) => f.endsWith('.json')).sort();
  const cases = [];
  for (const file of files) {
    const stem = file.replace(/\.json$/, '');
    const text = readFileSync(join(fixturesDir, file), 'utf8');
    const parsed = JSON.parse(text);
    const exact = parseExact(text);
    for (const [i, c] of parsed.cases.entries()) {
      for (const key of Object.keys(c)) {
        if (!CASE_KEYS.has(key)) throw new Error(`${stem}/${c.name}: unknown key ${key}`);
      }
      for (const key of Object.keys(c.expect)) {
        if (!EXPECT_KEYS.has(key)) throw new Error(`${stem}/${c.name}: unknown expect key ${key}`);
      }
      const exactRequest = 'request' in c ? exactJson(exact.cases[i].request) : undefined;
      cases.push({ file: stem, name: c.name, case: c, exactRequest });
    }
  }
  return cases;
}

/** A number literal kept as written. */
class RawNumber {
  constructor(raw) {
    this.raw = raw;
  }
}

/** Parses JSON text (a fixture file: valid JSON), keeping number literals as `RawNumber`s. */
function parseExact(text) {
  let i = 0;
  const ws = () => {
    while (' \t\n\r'.includes(text[i]) && i < text.length) i++;
  };
  const string = () => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const value = () => {
    ws();
    if (text[i] === '{') {
      i++;
      const object = {};
      ws();
      if (text[i] === '}') return i++, object;
      for (;;) {
        ws();
        const key = string();
        ws();
        i++; // ':'
        object[key] = value();
        ws();
        if (text[i++] === '}') return object;
      }
    }
    if (text[i] === '[') {
      i++;
      const array = [];
      ws();
      if (text[i] === ']') return i++, array;
      for (;;) {
        array.push(value());
        ws();
        if (text[i++] === ']') return array;
      }
    }
    if (text[i] === '"') return string();
    const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400))[0];
    i += literal.length;
    return { true: true, false: false, null: null }[literal] ?? new RawNumber(literal);
  };
  return value();
}

/** JSON text of a value from `parseExact`, numbers as written. */
function exactJson(value) {
  if (value instanceof RawNumber) return value.raw;
  if (Array.isArray(value)) return `[${value.map(exactJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${exactJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The case's subject with `{{base64 KIND N}}` expanded: `{ kind, value }` or `{ kind: 'raw', text }`. */
export function subject(c) {
  const given = ['request', 'bare', 'raw'].filter((k) => k in c);
  if (given.length !== 1) throw new Error(`case ${c.name} must have exactly one of request, bare, raw`);
  const kind = given[0];
  return kind === 'raw' ? { kind, text: c.raw } : { kind, value: expand(c[kind]) };
}

const SIGNATURES = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  gif: [...Buffer.from('GIF89a')],
  webp: [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBP')],
  pdf: [...Buffer.from('%PDF-1.7\n')],
  mp4: [0, 0, 0, 0, ...Buffer.from('ftypisom')],
  zero: [],
};

function generated(s) {
  const m = /^\{\{base64 (\S+) (.+)\}\}$/.exec(s);
  if (!m) return undefined;
  const n = Number(m[2].trim());
  if (!Number.isInteger(n) || n < 0) return undefined;
  const signature = SIGNATURES[m[1]];
  if (!signature) throw new Error(`unknown generated payload kind ${m[1]}`);
  if (n < signature.length) throw new Error(`${s}: N is smaller than the signature`);
  const bytes = Buffer.alloc(n);
  Buffer.from(signature).copy(bytes);
  return bytes.toString('base64');
}

/** Expands `{{base64 KIND N}}` strings anywhere in a value. */
export function expand(value) {
  if (typeof value === 'string') return generated(value) ?? value;
  if (Array.isArray(value)) return value.map(expand);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
  }
  return value;
}

/** JSON equality: key order ignored, array order significant, numbers by value. */
export function jsonEq(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEq(x, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEq(a[k], b[k]));
  }
  return a === b;
}

const show = (v) => (v === undefined ? 'undefined' : JSON.stringify(v));

/** Multiset comparison of expected and actual diagnostics; problems are pushed to `out`. */
export function checkDiagnostics(kind, expected, actual, out) {
  const key = (d) => `${d.code ?? '?'} at ${JSON.stringify(d.path ?? '?')}`;
  const remaining = [...(actual ?? [])];
  for (const want of expected ?? []) {
    const i = remaining.findIndex((got) => got.code === want.code && got.path === want.path);
    if (i < 0) {
      out.push(`missing ${kind} ${key(want)}`);
      continue;
    }
    const [got] = remaining.splice(i, 1);
    for (const field of ['expected', 'received', 'limit', 'actual', 'schema_path']) {
      // The package writes `schema_path` as `schemaPath`; the Rust runner reads an absent field
      // as null.
      const gotField = field === 'schema_path' ? 'schemaPath' : field;
      if (field in want && !jsonEq(want[field], got[gotField] ?? null)) {
        out.push(`${kind} ${key(want)}: ${field} is ${show(got[gotField])}, expected ${show(want[field])}`);
      }
    }
    for (const needle of want.message_contains ?? []) {
      if (!(got.message ?? '').includes(needle)) {
        out.push(`${kind} ${key(want)}: message ${show(got.message)} does not contain ${show(needle)}`);
      }
    }
  }
  for (const extra of remaining) out.push(`unexpected ${kind} ${key(extra)}: ${show(extra.message)}`);
}

/** Checks a validation report (`{ valid, inputType, errors, warnings }`) against a case. */
export function checkValidation(c, report, out) {
  const expect = c.expect;
  if (report.valid !== expect.valid) out.push(`valid is ${report.valid}, expected ${expect.valid}`);
  if ('input_type' in expect && report.inputType !== expect.input_type) {
    out.push(`inputType is ${show(report.inputType)}, expected ${show(expect.input_type)}`);
  }
  checkDiagnostics('error', expect.errors, report.errors, out);
  checkDiagnostics('warning', expect.warnings, report.warnings, out);
}

/** Checks a conversion report (`{ ok, body, errors, warnings }`, body as a value) against one
 * provider entry; the case's validation warnings are expected among the conversion's too. */
export function checkConversion(c, entry, report, out) {
  const warnings = [...(c.expect.warnings ?? []), ...(entry.warnings ?? [])];
  if ('body' in entry) {
    if (report.ok !== true) {
      out.push(`conversion failed: ${show(report.errors)}`);
      return;
    }
    const want = expand(entry.body);
    const got = expand(report.body);
    if (!jsonEq(want, got)) out.push(`body differs\n  expected: ${shorten(want)}\n  actual:   ${shorten(got)}`);
  } else if (!Array.isArray(entry.errors) || entry.errors.length === 0) {
    // Every entry compares something: a body, or the errors that stop the conversion.
    out.push('the entry gives neither a body nor errors: nothing would be compared');
  } else if (report.ok !== false) {
    out.push('conversion succeeded but errors were expected');
  }
  if (report.ok === false && 'body' in report && report.body !== undefined) {
    out.push('a failed conversion carries a body');
  }
  checkDiagnostics('conversion error', entry.errors, report.errors, out);
  checkDiagnostics('conversion warning', warnings, report.warnings, out);
}

function shorten(value) {
  const text = JSON.stringify(value);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** Fixture limits (`max_body_bytes`, …) as the package's `limits` option. */
export function limitsOption(limits) {
  if (!limits) return undefined;
  const names = { max_body_bytes: 'maxBodyBytes', max_depth: 'maxDepth', max_messages: 'maxMessages', max_blocks: 'maxBlocks' };
  return Object.fromEntries(
    Object.entries(limits).map(([k, v]) => {
      if (!(k in names)) throw new Error(`unknown limit ${k}`);
      return [names[k], v];
    }),
  );
}

const CAMEL = {
  max_tokens: 'maxTokens',
  top_p: 'topP',
  stop_sequences: 'stopSequences',
  allow_prefill: 'allowPrefill',
};

/**
 * A provider entry's options as the package takes them: `{ provider, ...options, limits }`,
 * with the fixture's snake_case keys turned into camelCase (`camel`) or passed as written,
 * which the package also accepts. Unknown keys are passed as written either way.
 */
export function convertOptions(provider, entry, limits, { camel }) {
  const options = { provider };
  for (const [key, value] of Object.entries(entry.options ?? {})) {
    if (camel && key === 'tools' && Array.isArray(value)) {
      options.tools = value.map((tool) => {
        if (tool === null || typeof tool !== 'object' || !('input_schema' in tool)) return tool;
        const { input_schema: inputSchema, ...rest } = tool;
        return { ...rest, inputSchema };
      });
    } else {
      options[camel ? (CAMEL[key] ?? key) : key] = value;
    }
  }
  const limitsOpt = limitsOption(limits);
  if (limitsOpt) options.limits = limitsOpt;
  return options;
}

const RESPONSE_KEYS = new Set(['name', 'spec', 'provider', 'body', 'raw', 'expect']);

/** Every provider response case of every fixture file, as `{ file, name, response }`. */
export function loadResponses() {
  const files = readdirSync(fixturesDir).filter((f) => f.endsWith('.json')).sort();
  const responses = [];
  for (const file of files) {
    const stem = file.replace(/\.json$/, '');
    const parsed = JSON.parse(readFileSync(join(fixturesDir, file), 'utf8'));
    for (const r of parsed.responses ?? []) {
      for (const key of Object.keys(r)) {
        if (!RESPONSE_KEYS.has(key)) throw new Error(`${stem}/response/${r.name}: unknown key ${key}`);
      }
      responses.push({ file: stem, name: r.name, response: r });
    }
  }
  return responses;
}

/** Checks `parseResponse`'s result (camelCase) against a response case (snake_case). */
export function checkResponse(r, result, out) {
  if (r.expect.errors) {
    if (result.ok !== false) out.push(`read, but errors were expected: ${show(result)}`);
    checkDiagnostics('error', r.expect.errors, result.errors, out);
    return;
  }
  if (result.ok !== true) {
    out.push(`reading failed: ${show(result.errors)}`);
    return;
  }
  const usage = result.usage && {
    input_tokens: result.usage.inputTokens,
    output_tokens: result.usage.outputTokens,
    total_tokens: result.usage.totalTokens,
    cache_read_input_tokens: result.usage.cacheReadInputTokens,
    cache_write_input_tokens: result.usage.cacheWriteInputTokens,
  };
  for (const key of ['cache_read_input_tokens', 'cache_write_input_tokens']) {
    if (usage && usage[key] === undefined) delete usage[key];
  }
  const read = [
    ['message', result.message],
    ['stop_reason', result.stopReason],
    ['usage', usage],
    ['reasoning', result.reasoning],
  ];
  for (const [key, got] of read) {
    if (!jsonEq(r.expect[key] ?? null, got ?? null)) out.push(`${key} is ${show(got)}, expected ${show(r.expect[key])}`);
  }
}
