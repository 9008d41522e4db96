// The JavaScript API itself: what the package exports, the shapes it returns (plain objects and
// arrays), what throws (only wrong argument types) and what does not (any bad input), options,
// the JSON-text variants, large payloads, and loading in Node without flags.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { pkg, projectDir, responsePkg } from './package.mjs';

const installed = join(projectDir, 'node_modules', 'agent-input');
const bedrock = { provider: 'bedrock-converse' };
const FUNCTIONS = [
  'convert',
  'convertInput',
  'convertJson',
  'detectInputType',
  'extractQuestion',
  'validate',
  'validateInput',
  'validateJson',
];

/** Standard base64 of `n` bytes: a PNG signature, then zeros. */
function png(n) {
  const bytes = Buffer.alloc(n);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes.toString('base64');
}

/** Fails unless every object in `value` is a plain object or an array. */
function assertPlain(value, path = '') {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertPlain(v, `${path}/${i}`));
    return;
  }
  assert.equal(Object.getPrototypeOf(value), Object.prototype, `${path || '/'} is not a plain object`);
  for (const [k, v] of Object.entries(value)) assertPlain(v, `${path}/${k}`);
}

describe('exports', () => {
  test('exactly the documented functions and version', () => {
    assert.deepEqual(Object.keys(pkg).sort(), [...FUNCTIONS, 'version'].sort());
    for (const name of FUNCTIONS) assert.equal(typeof pkg[name], 'function', name);
  });

  test('parseResponse is the entry agent-input/response, not the base entry (0.2.0)', () => {
    assert.deepEqual(Object.keys(responsePkg), ['parseResponse']);
    assert.equal(typeof responsePkg.parseResponse, 'function');
    assert.equal(pkg.parseResponse, undefined);
    const declarations = readFileSync(join(installed, 'response.d.ts'), 'utf8');
    assert.match(declarations, /^export \{ parseResponse \} from '\.\/agent_input_response\.js';$/m);
    assert.match(readFileSync(join(installed, 'agent_input_response.d.ts'), 'utf8'), /^export function parseResponse\(/m);
    assert.doesNotMatch(readFileSync(join(installed, 'agent_input.d.ts'), 'utf8'), /function parseResponse/);
  });

  test('version is the package.json version', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    assert.equal(pkg.version, manifest.version);
    assert.match(pkg.version, /^\d+\.\d+\.\d+/);
  });

  test('index.d.ts declares every function and re-exports every generated type', () => {
    const index = readFileSync(join(installed, 'index.d.ts'), 'utf8');
    const generated = readFileSync(join(installed, 'agent_input.d.ts'), 'utf8');
    for (const name of FUNCTIONS) {
      // convertJson is declared in index.d.ts itself: the entries wrap the module's function.
      const declared =
        name === 'convertJson'
          ? `^export function ${name}\\(text: string, options: ConvertOptions\\): ConvertJsonResult;$`
          : `^  ${name},$`;
      assert.match(index, new RegExp(declared, 'm'), `index.d.ts declares ${name}`);
      assert.match(generated, new RegExp(`^export function ${name}\\(`, 'm'), `${name} is generated`);
    }
    const loader = new Set(['InitInput', 'InitOutput', 'SyncInitInput']);
    const types = [...generated.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]);
    const missing = types.filter((t) => !loader.has(t) && !new RegExp(`^  ${t},$`, 'm').test(index));
    assert.deepEqual(missing, [], 'types of agent_input.d.ts not re-exported by index.d.ts');
    assert.match(index, /export declare const version: string;/);
  });

  test('package.json is complete', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    assert.equal(manifest.name, 'agent-input');
    assert.equal(manifest.license, 'Apache-2.0');
    assert.equal(manifest.type, 'module');
    assert.equal(manifest.types, './index.d.ts');
    assert.deepEqual(manifest.exports['.'], { types: './index.d.ts', node: './node.js', default: './index.js' });
    assert.deepEqual(manifest.exports['./schema'], { types: './schema.d.ts', node: './schema-node.js', default: './schema.js' });
    assert.deepEqual(manifest.exports['./response'], {
      types: './response.d.ts',
      node: './response-node.js',
      default: './response.js',
    });
    assert.deepEqual(manifest.sideEffects, [
      './index.js',
      './node.js',
      './schema.js',
      './schema-node.js',
      './agui.js',
      './agui-node.js',
      './register.js',
      './register-node.js',
      './response.js',
      './response-node.js',
      './import.js',
      './import-node.js',
      './models.js',
      './models-node.js',
    ]);
    assert.deepEqual(manifest.exports['./import'], { types: './import.d.ts', node: './import-node.js', default: './import.js' });
    assert.deepEqual(manifest.exports['./models'], { types: './models.d.ts', node: './models-node.js', default: './models.js' });
    for (const file of manifest.files) readFileSync(join(installed, file)); // every listed file is packed
    assert.match(readFileSync(join(installed, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0/);
    assert.match(readFileSync(join(installed, 'README.md'), 'utf8'), /import \{[^}]*validate/);
  });
});

describe('loading in Node', () => {
  const run = (args) => execFileSync(process.execPath, args, { cwd: projectDir, encoding: 'utf8' }).trim();

  test('import needs no flags and is ready at once', () => {
    const out = run([
      '--input-type=module',
      '-e',
      "import { validate, version } from 'agent-input'; console.log(version, validate({ input: 'Hi' }).valid)",
    ]);
    assert.equal(out, `${pkg.version} true`);
  });

  test('require() works where Node can require ES modules', { skip: !process.features.require_module }, () => {
    const out = run(['-e', "const a = require('agent-input'); console.log(a.validate({ input: 'Hi' }).valid)"]);
    assert.equal(out, 'true');
  });
});

describe('reports', () => {
  test('a validation report is plain objects with the documented keys', () => {
    const report = pkg.validate({
      input: [
        { type: 'text', text: 'Describe' },
        { type: 'image', source: { type: 'base64', format: 'bmp', data: 'Qk0=' } },
        { type: 'image', source: { type: 'base64', format: 'JPG', data: '/9j/4A==' } },
      ],
    });
    assertPlain(report);
    assert.deepEqual(Object.keys(report), ['valid', 'inputType', 'errors', 'warnings']);
    assert.equal(report.valid, false);
    assert.equal(report.inputType, 'CONTENT_BLOCKS');
    assert.deepEqual(report.errors, [
      {
        code: 'unsupported_format',
        path: '/input/1/source/format',
        message: "image format 'bmp' is not supported; use one of png, jpeg, gif, webp",
        expected: ['png', 'jpeg', 'gif', 'webp'],
        received: 'bmp',
      },
    ]);
    assert.equal(report.warnings[0].code, 'format_normalized');
    assert.equal(report.warnings[0].path, '/input/2/source/format');
  });

  test('limit and actual are numbers', () => {
    const report = pkg.validateJson('{"input": "Hello"}', { limits: { maxBodyBytes: 10 } });
    assert.deepEqual(
      { ...report.errors[0], message: undefined },
      { code: 'too_large', path: '', message: undefined, limit: 10, actual: 18 },
    );
  });

  test('the body limit counts UTF-8 bytes, measured before copying', () => {
    // 'é' is 2 bytes, '😀' (a surrogate pair) 4, an unpaired surrogate 3 (U+FFFD), as the text
    // is sent; more than 256 Ki characters, so the measuring crosses its window many times.
    for (const piece of ['é', '😀', 'a😀é', '\ud800']) {
      const text = `{"input": "${piece.repeat(300_000)}"}`;
      const bytes = Buffer.byteLength(text.replaceAll('\ud800', '\ufffd'));
      for (const limit of [text.length - 1, text.length, bytes - 1]) {
        const report = pkg.validateJson(text, { limits: { maxBodyBytes: limit } });
        assert.deepEqual([report.errors[0].code, report.errors[0].actual], ['too_large', bytes], `${piece} ${limit}`);
      }
      const converted = pkg.convertJson(text, { provider: 'gemini', limits: { maxBodyBytes: bytes - 1 } });
      assert.deepEqual([converted.errors[0].code, converted.errors[0].actual], ['too_large', bytes]);
      // Exactly at the limit (more code units than a third of it): read, not refused.
      assert.equal(pkg.validateJson(text, { limits: { maxBodyBytes: bytes } }).errors.length, 0, piece === '\ud800' ? 'unpaired' : piece);
    }
  });

  test('a conversion report is plain objects; a failed one has no body', () => {
    const ok = pkg.convert({ input: 'Hi' }, { ...bedrock, maxTokens: 10, temperature: 0.5 });
    assertPlain(ok);
    assert.deepEqual(ok, {
      ok: true,
      body: {
        messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
        inferenceConfig: { maxTokens: 10, temperature: 0.5 },
      },
      errors: [],
      warnings: [],
    });
    const failed = pkg.convertInput(
      [{ type: 'image', source: { type: 'url', format: 'png', data: 'https://example.com/a.png' } }],
      bedrock,
    );
    assertPlain(failed);
    assert.equal(failed.ok, false);
    assert.ok(!('body' in failed));
    assert.equal(failed.errors[0].code, 'url_not_supported_by_provider');
    assert.equal(failed.errors[0].path, '/0/source/data');
  });

  test('validateInput paths start at the input', () => {
    const report = pkg.validateInput([{ role: 'user', content: [{ type: 'text', text: ' ' }] }]);
    assert.equal(report.inputType, 'MESSAGES');
    assert.deepEqual(
      report.errors.map((e) => [e.code, e.path]),
      [['empty_text', '/0/content/0/text']],
    );
  });
});

describe('what throws', () => {
  const cyclic = {};
  cyclic.self = cyclic;
  const typeErrors = {
    'validate(undefined)': () => pkg.validate(undefined),
    'validate()': () => pkg.validate(),
    'validate(function)': () => pkg.validate(() => {}),
    'validate(symbol)': () => pkg.validate(Symbol('x')),
    'validate(BigInt inside)': () => pkg.validate({ input: 'x', parameters: { n: 1n } }),
    'validate(cycle)': () => pkg.validate(cyclic),
    'validate(options: string)': () => pkg.validate({ input: 'x' }, 'strict'),
    'validate(options: array)': () => pkg.validate({ input: 'x' }, []),
    'validateInput(undefined)': () => pkg.validateInput(undefined),
    'validateJson(number)': () => pkg.validateJson(5),
    'validateJson(object)': () => pkg.validateJson({ input: 'x' }),
    'validateJson()': () => pkg.validateJson(),
    'convert without options': () => pkg.convert({ input: 'x' }),
    'convert(options: null)': () => pkg.convert({ input: 'x' }, null),
    'convert(options: string)': () => pkg.convert({ input: 'x' }, 'bedrock-converse'),
    'convertInput(undefined, options)': () => pkg.convertInput(undefined, bedrock),
    'convertJson(buffer)': () => pkg.convertJson(Buffer.from('{}'), bedrock),
    'convertJson without options': () => pkg.convertJson('{"input": "x"}'),
    'extractQuestion(undefined)': () => pkg.extractQuestion(undefined),
    'detectInputType(function)': () => pkg.detectInputType(() => {}),
  };
  for (const [name, call] of Object.entries(typeErrors)) {
    test(`${name} throws a TypeError`, () => assert.throws(call, TypeError));
  }

  test('bad input never throws', () => {
    const deep = JSON.parse('['.repeat(200) + ']'.repeat(200));
    const inputs = [null, 0, -1.5, true, '', ' ', 'x', [], {}, [null], [[]], [{}], { input: null }, { input: {} },
      { input: [{ type: 'image' }] }, { input: [{ role: 5 }] }, { input: 'x', parameters: 'y' }, deep,
      { input: [{ type: 'text', text: 'x'.repeat(100_000) }] }, { input: '\ud800' }, new Date(0), [NaN, Infinity]];
    for (const value of inputs) {
      for (const report of [pkg.validate(value), pkg.validateInput(value)]) {
        assert.equal(typeof report.valid, 'boolean');
        assert.ok(Array.isArray(report.errors) && Array.isArray(report.warnings));
      }
      for (const result of [pkg.convert(value, bedrock), pkg.convertInput(value, bedrock)]) {
        assert.equal(typeof result.ok, 'boolean');
      }
      assert.ok(['string', 'object'].includes(typeof pkg.extractQuestion(value)));
      pkg.detectInputType(value);
    }
    for (const text of ['', '{', 'null', '[', '\ufeff', '{"input": "x"', '"\\ud800"', 'x'.repeat(1000)]) {
      assert.equal(pkg.validateJson(text).valid, false, text);
      assert.equal(pkg.convertJson(text, bedrock).ok, false, text);
    }
  });

  test('bad options are errors at /options/<name>, not exceptions', () => {
    const report = pkg.convert({ input: 'x' }, { provider: 'openai', temperature: 'warm', colour: 1 });
    assert.equal(report.ok, false);
    assert.deepEqual(report.errors.map((e) => e.path).sort(), ['/options/colour', '/options/provider', '/options/temperature']);
    const provider = report.errors.find((e) => e.path === '/options/provider');
    assert.deepEqual(provider.expected, ['bedrock-converse', 'openai-chat', 'openai-responses', 'anthropic-messages', 'gemini']);
    const missing = pkg.convert({ input: 'x' }, {});
    assert.deepEqual(missing.errors.map((e) => [e.code, e.path]), [['invalid_parameter', '/options/provider']]);
    const limits = pkg.validate({ input: 'x' }, { limits: { maxDepth: -1 }, allowPrefill: 'yes' });
    assert.deepEqual(limits.errors.map((e) => e.path).sort(), ['/options/allowPrefill', '/options/limits/maxDepth']);
  });
});

describe('options', () => {
  const tools = [{ name: 'lookup', description: 'Look up', inputSchema: { type: 'object' } }];
  const history = {
    input: [
      { role: 'user', content: [{ type: 'text', text: 'Find x' }] },
      {
        role: 'assistant',
        content: [],
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
      },
      { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'found' }] },
    ],
  };

  test('camelCase, snake_case and numeric strings give the same body', () => {
    const camel = pkg.convert(history, {
      ...bedrock, system: 'Be brief.', maxTokens: 100, temperature: 0.2, topP: 0.9, stopSequences: ['END'], tools,
    });
    const snake = pkg.convert(history, {
      ...bedrock, system: 'Be brief.', max_tokens: '100', temperature: '0.2', top_p: '0.9', stop_sequences: ['END'],
      tools: [{ name: 'lookup', description: 'Look up', input_schema: { type: 'object' } }],
    });
    assert.equal(camel.ok, true, JSON.stringify(camel.errors));
    assert.deepEqual(snake, camel);
    assert.deepEqual(camel.body.system, [{ text: 'Be brief.' }]);
    assert.deepEqual(camel.body.inferenceConfig, { maxTokens: 100, temperature: 0.2, topP: 0.9, stopSequences: ['END'] });
    assert.deepEqual(camel.body.toolConfig, {
      tools: [{ toolSpec: { name: 'lookup', description: 'Look up', inputSchema: { json: { type: 'object' } } } }],
    });
    assert.deepEqual(camel.body.messages[1].content, [{ toolUse: { toolUseId: 'c1', name: 'lookup', input: { q: 'x' } } }]);
  });

  test('tool history without tools is tool_config_required', () => {
    const report = pkg.convert(history, bedrock);
    assert.deepEqual(report.errors.map((e) => e.code), ['tool_config_required']);
  });

  test("the ml-commons provider name is accepted", () => {
    assert.equal(pkg.convert({ input: 'x' }, { provider: 'bedrock/converse' }).ok, true);
  });

  test('allowPrefill accepts a conversation ending with the assistant', () => {
    const prefill = {
      input: [
        { role: 'user', content: [{ type: 'text', text: 'Say hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hi' }] },
      ],
    };
    assert.deepEqual(pkg.validate(prefill).errors.map((e) => e.code), ['last_message_role']);
    assert.equal(pkg.validate(prefill, { allowPrefill: true }).valid, true);
    assert.equal(pkg.convert(prefill, { ...bedrock, allowPrefill: true }).ok, true);
    assert.equal(pkg.convert(prefill, { ...bedrock, allow_prefill: true }).ok, true);
  });

  test('limits apply to every entry point', () => {
    const messages = Array.from({ length: 3 }, () => ({ role: 'user', content: [{ type: 'text', text: 'x' }] }));
    const limits = { maxMessages: 2 };
    assert.equal(pkg.validate({ input: messages }, { limits }).errors[0].code, 'too_many');
    assert.equal(pkg.validateInput(messages, { limits }).errors[0].code, 'too_many');
    assert.equal(pkg.validateJson(JSON.stringify({ input: messages }), { limits }).errors[0].code, 'too_many');
    assert.equal(pkg.convert({ input: messages }, { ...bedrock, limits }).errors[0].code, 'too_many');
    assert.equal(pkg.validate({ input: messages }, { limits: { max_messages: 3 } }).valid, true);
  });
});

describe('question and input type', () => {
  test('extractQuestion reads a bare input as ml-commons does', () => {
    assert.equal(pkg.extractQuestion('What is OpenSearch?'), 'What is OpenSearch?');
    assert.equal(
      pkg.extractQuestion([{ type: 'text', text: ' First question. ' }, { type: 'text', text: 'Second question.' }]),
      'First question.\nSecond question.\n',
    );
    const conversation = [
      { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hi there' }] },
      { role: 'user', content: [{ type: 'text', text: 'What is AI?' }] },
    ];
    assert.equal(pkg.extractQuestion(conversation), 'What is AI?\n');
    assert.equal(pkg.extractQuestion([]), null);
    assert.equal(pkg.extractQuestion({ input: 'a request is not an input' }), null);
  });

  test('detectInputType tells the form, also of input with errors', () => {
    assert.equal(pkg.detectInputType(' '), 'TEXT');
    assert.equal(pkg.detectInputType([{ type: 'image' }]), 'CONTENT_BLOCKS');
    assert.equal(pkg.detectInputType([{ role: 'user' }]), 'MESSAGES');
    assert.equal(pkg.detectInputType([{ role: 'user' }, { type: 'text', text: 'x' }]), null);
    assert.equal(pkg.detectInputType(5), null);
    assert.equal(pkg.detectInputType(null), null);
  });
});

describe('values are read as JSON.stringify writes them', () => {
  test('toJSON, undefined members and non-finite numbers', () => {
    const report = pkg.validate({
      input: [{ type: 'text', text: 'x', extra: undefined }],
      parameters: { when: new Date(0), n: NaN },
    });
    assert.equal(report.valid, true);
    assert.deepEqual(report.warnings, []);
  });

  test('unpaired surrogates cannot be read as Unicode text: invalid_json', () => {
    const report = pkg.validate({ input: 'a\ud800b' });
    assert.deepEqual(report.errors.map((e) => [e.code, e.path]), [['invalid_json', '']]);
  });

  test('non-ASCII text survives both ways', () => {
    const text = 'Grüße, 世界 👋';
    assert.deepEqual(pkg.convert({ input: text }, bedrock).body.messages[0].content, [{ text }]);
    const json = pkg.convertJson(JSON.stringify({ input: text }), bedrock);
    assert.deepEqual(JSON.parse(json.body).messages[0].content, [{ text }]);
  });
});

describe('large payloads', () => {
  const data = png(3_500_000);
  const request = {
    input: [
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', source: { type: 'base64', format: 'png', data } },
    ],
  };

  test('a 3.5 MB image converts through values and through text to the same body', () => {
    const viaValues = pkg.convert(request, bedrock);
    const viaText = pkg.convertJson(JSON.stringify(request), bedrock);
    assert.equal(viaValues.ok, true);
    assert.equal(viaText.ok, true);
    assert.equal(typeof viaText.body, 'string');
    assert.equal(viaValues.body.messages[0].content[1].image.source.bytes, data);
    assert.deepEqual(JSON.parse(viaText.body), viaValues.body);
    assert.ok(viaText.body.includes(`"bytes":"${data}"`));
  });

  test('the body buffer is reused safely from call to call', () => {
    const big = pkg.convertJson(JSON.stringify(request), bedrock);
    const small = pkg.convertJson('{"input": "Hi"}', bedrock);
    const failed = pkg.convertJson('{"input": ""}', bedrock);
    assert.equal(JSON.parse(small.body).messages[0].content[0].text, 'Hi');
    assert.ok(!('body' in failed));
    assert.equal(JSON.parse(big.body).messages[0].content[1].image.source.bytes, data);
  });

  test('a 2,000-message conversation', () => {
    const messages = [];
    for (let i = 0; i < 1000; i++) {
      messages.push({ role: 'user', content: [{ type: 'text', text: `Question ${i}` }] });
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `Answer ${i}` }] });
    }
    messages.push({ role: 'user', content: [{ type: 'text', text: 'And finally?' }] });
    const result = pkg.convert({ input: messages }, bedrock);
    assert.equal(result.ok, true);
    assert.equal(result.body.messages.length, 2001);
    assert.equal(pkg.extractQuestion(messages), 'And finally?\n');
  });
});
