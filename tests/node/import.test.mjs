// `agent-input/import`: `importRequest`, a provider's request body read into the standard request
// and, with `{ to }`, converted to another provider. Every fixture of tests/fixtures/import runs
// here as the Rust runners run it; expectations come from the fixtures, written from the
// providers' documentation.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { importPkg, modelsPkg, pkg, projectDir, sizeImportPkg } from './package.mjs';
import { expand, fixturesDir } from './support.mjs';

const installed = join(projectDir, 'node_modules', 'agent-input');
const { importRequest, providerForBody, providerForUrl, providers } = importPkg;

/** `{code, path}` multisets, as every runner compares diagnostics. */
function keys(list) {
  return list.map((d) => `${d.code} ${d.path}`).sort();
}

describe('importRequest', () => {
  test('is the entry agent-input/import, with its own module', () => {
    assert.deepEqual(Object.keys(importPkg), ['importRequest', 'providerForBody', 'providerForUrl', 'providers']);
    assert.equal(pkg.importRequest, undefined);
    for (const file of ['index.js', 'node.js', 'agent_input.js']) {
      assert.ok(!readFileSync(join(installed, file), 'utf8').includes('import_bg'), `${file} loads the import module`);
    }
    assert.match(readFileSync(join(installed, 'import-node.js'), 'utf8'), /agent_input_import_node_bg\.wasm/);
    assert.match(readFileSync(join(installed, 'import.js'), 'utf8'), /agent_input_import_bg\.wasm/);
    const wasm = readFileSync(join(installed, 'agent_input_import_bg.wasm'));
    const gzip = gzipSync(wasm, { level: 9 }).length;
    // 196,798 B by Node's zlib with provider fields of the request, its messages and its tools
    // (179,952 B with the body alone written as text in Node's module; 178,009 B
    // with provider items and JSON tool results; 166,888 B by gzip -9 with reasoning read in,
    // 162,151 B before).
    assert.ok(gzip <= 196 * 1024, `agent_input_import_bg.wasm is ${gzip} B gzip, over its budget of 196 KiB`);
  });

  const dir = join(fixturesDir, 'import');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const { imports } = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    // The model's rules are in `agent-input/models`, whose `importRequest` has the model table.
    // Its one module is the browsers' and Node's; the import entry has two, compared here.
    const models = file === 'models.json';
    const entry = models ? modelsPkg : importPkg;
    const sizeEntry = models ? null : sizeImportPkg;
    for (const c of imports) {
      test(`${file}: ${c.name}`, () => {
        const body = expand(c.body);
        const importRequest = entry.importRequest;
        const got = importRequest(c.from, body, c.to ? { to: c.to } : undefined);
        const want = c.expect;
        assert.equal(got.ok, want.ok, JSON.stringify(got.errors));
        if ('request' in want) assert.deepEqual(got.request, expand(want.request));
        if ('options' in want) assert.deepEqual(got.options, want.options);
        if ('body' in want) assert.deepEqual(got.body, expand(want.body));
        assert.equal('body' in got, Boolean(c.to), 'a body exactly when { to } is given');
        assert.deepEqual(keys(got.errors), keys(want.errors ?? []));
        assert.deepEqual(keys(got.warnings), keys(want.warnings ?? []));
        // What the declarations promise: `ok` means a request with its input, no errors, and
        // with a target its body; no body can be built otherwise.
        if (got.ok) {
          assert.ok(got.request !== null && 'input' in got.request, 'an imported request has its input');
          assert.deepEqual(got.errors, []);
          if (c.to) assert.equal(typeof got.body, 'object');
          if (c.to) assert.notEqual(got.body, null);
        } else if (c.to) {
          assert.equal(got.body, null);
        }
        if (c.to) {
          // The body alone, as `convert` and `convertJson` report one: the same body, the same
          // problems, without the standard request.
          const alone = { ok: got.ok, ...(got.ok ? { body: got.body } : {}), errors: got.errors, warnings: got.warnings };
          assert.deepEqual(importRequest(c.from, body, { to: c.to, only: 'body' }), alone);
          const text = importRequest(c.from, JSON.stringify(body), { to: c.to, only: 'bodyJson' });
          assert.deepEqual(Object.keys(text), Object.keys(alone));
          assert.deepEqual({ ...text, ...(got.ok ? { body: JSON.parse(text.body) } : {}) }, alone);
          if (sizeEntry) assert.deepEqual(sizeEntry.importRequest(c.from, body, { to: c.to, only: 'bodyJson' }), text);
        }
        // The body as JSON text gives the same report.
        assert.deepEqual(importRequest(c.from, JSON.stringify(body), c.to ? { to: c.to } : undefined), got);
        // The browsers' module (built for size; Node's is built for speed) answers alike.
        if (sizeEntry) assert.deepEqual(sizeEntry.importRequest(c.from, body, c.to ? { to: c.to } : undefined), got);
      });
    }
  }

  // The body alone is joined from the module's text and slices of the request string: each
  // large payload is put back from where the request holds it, also after non-ASCII text (the
  // slices count UTF-16 code units) and from every provider's way of carrying media. Both modules
  // must give the full import's body.
  test('the body alone carries each large payload as the request holds it', () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(30_000, 7)]);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(20_000, 9)]);
    const [image, doc] = [png.toString('base64'), pdf.toString('base64')];
    const text = 'Compare these — é, 東京, 🙂, a "quote" and a\nline break';
    const requests = {
      'openai-chat': { model: 'gpt-4o', messages: [{ role: 'user', content: [
        { type: 'text', text },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${image}` } },
        { type: 'file', file: { filename: 'a.pdf', file_data: `data:application/pdf;base64,${doc}` } },
      ] }] },
      'openai-responses': { model: 'gpt-4o', input: [{ role: 'user', content: [
        { type: 'input_text', text },
        { type: 'input_image', image_url: `data:image/png;base64,${image}` },
        { type: 'input_file', filename: 'a.pdf', file_data: `data:application/pdf;base64,${doc}` },
      ] }] },
      'anthropic-messages': { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: [
        { type: 'text', text },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: image } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: doc } },
      ] }] },
      gemini: { contents: [{ role: 'user', parts: [
        { text },
        { inlineData: { mimeType: 'image/png', data: image } },
        { inlineData: { mimeType: 'application/pdf', data: doc } },
      ] }] },
      'bedrock-converse': { messages: [{ role: 'user', content: [
        { text },
        { image: { format: 'png', source: { bytes: image } } },
        { document: { format: 'pdf', name: 'a', source: { bytes: doc } } },
      ] }] },
    };
    for (const [from, request] of Object.entries(requests)) {
      const body = JSON.stringify(request);
      for (const { id: to } of providers()) {
        const full = importRequest(from, body, { to });
        assert.ok(full.ok, `${from} → ${to}: ${JSON.stringify(full.errors)}`);
        const written = JSON.stringify(full.body);
        assert.ok(written.includes(image) && written.includes(doc), `${from} → ${to}: the payloads are in the body`);
        for (const module of [importPkg, sizeImportPkg]) {
          assert.deepEqual(module.importRequest(from, body, { to, only: 'body' }).body, full.body, `${from} → ${to}`);
          assert.equal(module.importRequest(from, body, { to, only: 'bodyJson' }).body, written, `${from} → ${to}`);
        }
      }
    }
    // The mark the module writes in the payloads' place, also in tool arguments: the body is
    // then written whole, and stays the full import's.
    const marked = {
      model: 'gpt-4o',
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${image}` } }] },
        { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a": "\\uFFFF"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
      ],
    };
    for (const { id: to } of providers()) {
      const full = importRequest('openai-chat', marked, { to });
      assert.ok(full.ok, `${to}: ${JSON.stringify(full.errors)}`);
      assert.deepEqual(importRequest('openai-chat', marked, { to, only: 'body' }).body, full.body, to);
    }
  });

  test('bad arguments throw, bad data is reported', () => {
    assert.throws(() => importRequest(5, {}), TypeError);
    assert.throws(() => importRequest('gemini', {}, 'openai-chat'), TypeError);
    assert.throws(() => importRequest('gemini', {}, { to: 5 }), TypeError);
    assert.throws(() => importRequest('gemini', {}, { only: 'body' }), /options\.only needs options\.to/);
    assert.throws(() => importRequest('gemini', {}, { to: 'openai-chat', only: 'request' }), /"body" or "bodyJson"/);
    assert.throws(() => importRequest('gemini', {}, { to: 'openai-chat', only: true }), TypeError);
    const unknown = importRequest('cohere', {}, { to: 'nope' });
    assert.equal(unknown.ok, false);
    assert.deepEqual(keys(unknown.errors), ['invalid_parameter /options/to', 'invalid_parameter /provider']);
    const broken = importRequest('gemini', '{not json');
    assert.equal(broken.ok, false);
    assert.equal(broken.errors[0].code, 'invalid_json');
    assert.equal(broken.request, null);
  });
});

// What a page needs to tell which provider a pasted request is for, so it names none itself.
describe('the providers, by URL and by body', () => {
  test('providers() lists each provider importRequest takes, with its name for people', () => {
    assert.deepEqual(providers(), [
      { id: 'bedrock-converse', name: 'Bedrock Converse' },
      { id: 'openai-chat', name: 'OpenAI Chat Completions' },
      { id: 'openai-responses', name: 'OpenAI Responses' },
      { id: 'anthropic-messages', name: 'Anthropic Messages' },
      { id: 'gemini', name: 'Gemini' },
    ]);
    assert.deepEqual(sizeImportPkg.providers(), providers());
    for (const { id } of providers()) {
      assert.ok(!importRequest(id, {}).errors.some((d) => d.path === '/provider'), `${id} is taken`);
    }
  });

  // The endpoints as the providers' documentation writes them.
  const urls = [
    ['https://api.openai.com/v1/chat/completions', 'openai-chat'],
    ['https://my-resource.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21', 'openai-chat'],
    ['https://my-resource.openai.azure.com/openai/v1/chat/completions', 'openai-chat'],
    ['https://api.openai.com/v1/responses', 'openai-responses'],
    ['https://my-resource.openai.azure.com/openai/v1/responses?api-version=preview', 'openai-responses'],
    ['https://api.anthropic.com/v1/messages', 'anthropic-messages'],
    ['https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent', 'gemini'],
    ['https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', 'gemini'],
    ['https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent', 'gemini'],
    ['https://aiplatform.googleapis.com/v1/projects/my-project/locations/global/publishers/google/models/gemini-2.5-flash:streamGenerateContent', 'gemini'],
    ['https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1:0/converse', 'bedrock-converse'],
    ['https://bedrock-runtime.eu-central-1.amazonaws.com/model/eu.amazon.nova-lite-v1:0/converse-stream', 'bedrock-converse'],
    ['https://bedrock-runtime.ap-northeast-1.amazonaws.com/model/apac.anthropic.claude-sonnet-4-20250514-v1:0/converse', 'bedrock-converse'],
    ['https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com/model/arn%3Aaws-us-gov%3Abedrock%3Aus-gov-west-1%3A123456789012%3Ainference-profile%2Fus-gov.m/converse', 'bedrock-converse'],
    // Other operations of the same hosts, and no URL at all.
    ['https://api.openai.com/v1/embeddings', null],
    ['https://api.anthropic.com/v1/messages/count_tokens', null],
    ['https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens', null],
    ['https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1:0/invoke', null],
    ['https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict', null],
    ['https://example.com/', null],
    ['not a url', null],
    ['', null],
  ];
  for (const [url, want] of urls) {
    test(`providerForUrl: ${url || '(empty)'} is ${want}`, () => {
      assert.equal(providerForUrl(url), want);
      assert.equal(sizeImportPkg.providerForUrl(url), want);
    });
  }

  // A request body of each provider, as its documentation writes one; each imports as that
  // provider's without an error.
  const bodies = [
    ['openai-chat', { model: 'gpt-5', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] }],
    ['openai-chat', { model: 'gpt-5', messages: [{ role: 'user', content: 'Hi' }] }],
    ['openai-responses', { model: 'gpt-5', instructions: 'Be brief.', input: 'Hi' }],
    ['anthropic-messages', { model: 'claude-sonnet-4-5', max_tokens: 512, system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] }],
    ['gemini', { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { maxOutputTokens: 512 } }],
    ['bedrock-converse', { messages: [{ role: 'user', content: [{ text: 'Hi' }] }], inferenceConfig: { maxTokens: 512 } }],
  ];
  for (const [want, body] of bodies) {
    test(`providerForBody: ${JSON.stringify(body)} is ${want}`, () => {
      assert.equal(providerForBody(body), want);
      assert.equal(providerForBody(JSON.stringify(body, null, 2)), want);
      assert.equal(sizeImportPkg.providerForBody(body), want);
      assert.deepEqual(importRequest(want, body).errors, []);
    });
  }

  test('providerForBody: null when the shape fits none, or more than one', () => {
    for (const body of ['', '{not json', '[]', '"Hi"', { model: 'm' }, { contents: [], input: 'Hi' }, null, 5]) {
      assert.equal(providerForBody(body), null, JSON.stringify(body));
    }
  });

  test('bad arguments throw', () => {
    assert.throws(() => providerForUrl(5), /url must be a string/);
    assert.throws(() => providerForUrl(new URL('https://api.openai.com/v1/responses')), TypeError);
    assert.throws(() => providerForBody(undefined), TypeError);
    assert.throws(() => providerForBody(10n), TypeError);
  });
});
