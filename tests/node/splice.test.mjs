// convertJson's large payloads are put back into the body in JavaScript (npm/splice.js): the
// module writes a mark where each goes and says where in the request string it stands. Each body
// here is compared byte for byte with the same request whose payloads are written with `\/`
// escapes: legal JSON for the same strings, which the module cannot splice from the request
// text, so it writes them whole — the path every payload took before splicing.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { pkg, sizePkg } from './package.mjs';

const PROVIDERS = ['bedrock-converse', 'openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];

/** Standard base64 of `n` bytes: `signature`, then bytes that give every base64 character. */
function base64(signature, n, seed) {
  const bytes = Buffer.alloc(n);
  Buffer.from(signature).copy(bytes);
  let x = seed * 2654435761 + 1;
  for (let i = signature.length; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  const text = bytes.toString('base64');
  if (n >= 1000) assert.ok(text.includes('/') && text.includes('+'));
  return text;
}
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PDF = [...Buffer.from('%PDF-1.7\n')];

/** `text` with every `/` inside a string written as `\/` (base64 and text alike). */
const escaped = (text) => text.replaceAll('/', '\\/');

/** Each non-ASCII shape JavaScript strings hold: two- and three-byte UTF-8, a surrogate pair, an
 * unpaired surrogate (which the module reads as U+FFFD). */
const AROUND = ['plain', 'é ünïcödé', '日本語のテキスト', 'emoji 🙂🙃 pairs', 'lone \ud800 surrogate'];

function request(around, sizes) {
  const content = [{ type: 'text', text: `${around} before` }];
  sizes.forEach((n, i) => {
    content.push({ type: 'image', source: { type: 'base64', format: 'png', data: base64(PNG, n, i) } });
    content.push({ type: 'text', text: `${around} #${i}` });
  });
  content.push({ type: 'document', name: `${around.replace(/[^a-z ]/g, '')} doc`, source: { type: 'base64', format: 'pdf', data: base64(PDF, 40_000, 9) } });
  return {
    input: [
      { role: 'user', content: [{ type: 'text', text: `${around} first` }] },
      { role: 'assistant', content: [{ type: 'text', text: `${around} reply` }] },
      { role: 'user', content },
    ],
  };
}

describe('convertJson splices large payloads back exactly', () => {
  for (const provider of PROVIDERS) {
    test(provider, () => {
      for (const around of AROUND) {
        // Below, at and above the 16 KiB from which payloads are spliced, several in one request.
        for (const sizes of [[100], [12_288], [12_289], [30_000, 50, 20_001], [60_000, 60_000]]) {
          // JSON.stringify escapes an unpaired surrogate; it is sent raw here.
          const text = JSON.stringify(request(around, sizes)).replaceAll('\\ud800', '\ud800');
          const spliced = pkg.convertJson(text, { provider });
          const whole = pkg.convertJson(escaped(text), { provider });
          assert.equal(spliced.ok, true, JSON.stringify(spliced.errors));
          assert.equal(typeof spliced.body, 'string');
          assert.ok(!spliced.body.includes('\0') && !spliced.body.includes('\\uFFFF'));
          assert.equal(spliced.body, whole.body, `${provider} ${around} ${sizes}`);
          assert.deepEqual(spliced.warnings, whole.warnings);
          // (`convert` takes values, whose JSON text escapes an unpaired surrogate: not JSON the core reads.)
          if (!around.includes('\ud800')) {
            assert.deepEqual(JSON.parse(spliced.body), pkg.convert(JSON.parse(text), { provider }).body);
          }
        }
      }
    });
  }

  test('the same payload twice, and a payload in a data URL', () => {
    const data = base64(PNG, 30_000, 3);
    const block = { type: 'image', source: { type: 'base64', format: 'png', data } };
    const text = JSON.stringify({ input: [{ type: 'text', text: 'twice' }, block, block] });
    for (const provider of PROVIDERS) {
      const body = pkg.convertJson(text, { provider }).body;
      assert.equal(body, pkg.convertJson(escaped(text), { provider }).body);
      assert.equal(body.split(data).length, 3, provider);
    }
  });

  test("a tool's raw arguments holding the mark: the body is written whole", () => {
    const data = base64(PNG, 30_000, 4);
    const text = JSON.stringify({
      input: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image', source: { type: 'base64', format: 'png', data } }] },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Checking.' }],
          toolCalls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"note":"\\uFFFF"}' } }],
        },
        { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: '72F' }] },
      ],
    });
    const tools = [{ name: 'get_weather', description: 'The weather', input_schema: { type: 'object' } }];
    let raw = 0;
    for (const provider of PROVIDERS) {
      const result = pkg.convertJson(text, { provider, tools });
      assert.equal(result.ok, true, JSON.stringify(result.errors));
      assert.equal(result.body, pkg.convertJson(escaped(text), { provider, tools }).body, provider);
      assert.equal(result.body.split(data).length, 2, provider);
      if (result.body.includes('\\uFFFF')) raw += 1;
    }
    // Some provider copies the arguments' escape as it is: the case the fallback is for.
    assert.ok(raw > 0);
  });
});

describe('invalid base64 in large payloads: the same diagnostics', () => {
  const good = base64(PNG, 40_000, 5);
  // Across the 16- and 32-byte blocks the scans take, and near the end.
  const offsets = [0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 1000, good.length - 20, good.length - 5];
  for (const [bad, code, what] of [
    ['-', 'invalid_base64', "'-' at offset"],
    ['é', 'invalid_base64', "'é' at offset"],
    ['=', 'invalid_base64', "padding '=' at offset"],
  ]) {
    test(`${JSON.stringify(bad)} at ${offsets.length} offsets`, () => {
      for (const at of offsets) {
        const data = good.slice(0, at) + bad + good.slice(at + 1);
        const text = JSON.stringify({ input: [{ type: 'image', source: { type: 'base64', format: 'png', data } }] });
        for (const result of [pkg.convertJson(text, { provider: 'bedrock-converse' }), pkg.validateJson(text)]) {
          assert.equal(result.errors.length, 1, JSON.stringify(result.errors));
          const [error] = result.errors;
          assert.equal(error.code, code);
          assert.equal(error.path, '/input/0/source/data');
          assert.ok(error.message.includes(`${what} ${at} `), `${error.message} (offset ${at})`);
        }
        // The same errors when the payload cannot be read in place.
        assert.deepEqual(pkg.convertJson(escaped(text), { provider: 'bedrock-converse' }).errors, pkg.convertJson(text, { provider: 'bedrock-converse' }).errors);
      }
    });
  }
});

// A body over 32 KiB comes back as pieces decoded apart and joined (text.rs, `js_string`): each
// piece ends at a character boundary, whatever the characters around it.
describe('long bodies come back whole', () => {
  /** Messages whose texts put 1- to 4-byte characters, and unpaired surrogates, at every offset. */
  function conversation(wide) {
    const input = [];
    for (let i = 0; i < 161; i++) {
      const text = `${'x'.repeat(i % 7)}${wide.repeat(400 + (i % 5))} #${i}`;
      input.push({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] });
    }
    return { input };
  }
  for (const wide of ['a', 'é', '日', '🙂', 'é日🙂', '\ud800']) {
    test(JSON.stringify(wide), () => {
      // An unpaired surrogate is read as U+FFFD, as in the text the module was given.
      const request = conversation(wide);
      const text = JSON.stringify(request).replaceAll('\\ud800', '\ud800');
      for (const provider of PROVIDERS) {
        for (const module of [pkg, sizePkg]) {
          const result = module.convertJson(text, { provider });
          assert.equal(result.ok, true, JSON.stringify(result.errors));
          assert.ok(Buffer.byteLength(result.body) > 64 * 1024, 'long enough for several pieces');
          const sent = JSON.stringify(JSON.parse(result.body));
          for (const message of request.input) {
            const expected = message.content[0].text.replaceAll('\ud800', '\ufffd');
            assert.ok(sent.includes(JSON.stringify(expected).slice(1, -1)), `${provider}: ${expected.slice(0, 20)}…`);
          }
          assert.ok(!result.body.includes('\ufffd') || wide === '\ud800');
        }
        assert.equal(pkg.convertJson(text, { provider }).body, sizePkg.convertJson(text, { provider }).body);
      }
    });
  }
});
