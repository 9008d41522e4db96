// Real provider traffic (tests/captures/, recorded against the real APIs) through the packed
// package: `parseResponse` of `agent-input/response` on every answer, and `createStreamDecoder`
// of `agent-input/agui` on every stream written back as the provider sends it, fed in small
// pieces. Each gives the text, tool calls and reasoning state (`message.reasoningState`) that an
// independent reading of the same JSON gives.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { projectDir, responsePkg } from './package.mjs';

const entry = join(projectDir, 'captures-agui-entry.mjs');
writeFileSync(entry, "export * from 'agent-input/agui';\n");
const agui = await import(pathToFileURL(entry).href);

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'captures');
const PROVIDERS = {
  anthropic: 'anthropic-messages',
  'vertex-anthropic': 'anthropic-messages',
  'chat-completions': 'openai-chat',
  responses: 'openai-responses',
  google: 'gemini',
  bedrock: 'bedrock-converse',
};

const captures = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((c) =>
    readdirSync(join(root, c.name)).map((folder) => ({
      name: `${c.name}/${folder}`,
      provider: PROVIDERS[folder],
      dir: join(root, c.name, folder),
    })),
  )
  .sort((a, b) => a.name.localeCompare(b.name));

const read = (capture, file) => {
  const path = join(capture.dir, file);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
};
const args = (text) => (text && text.trim() ? JSON.parse(text) : {});

/** Responses output items: text, calls, reasoning items and the ids beside them. */
function readOutput(items, r) {
  for (const item of items) {
    if (item.type === 'message') {
      const text = item.content.map((p) => p.text ?? p.refusal ?? '').join('');
      r.state.push(text.trim() ? item.id : item);
      r.text += text;
    } else if (item.type === 'function_call') {
      r.state.push(item.id);
      r.calls.push([item.call_id, item.name, args(item.arguments)]);
    } else if (item.type === 'reasoning') {
      r.state.push(item);
    } else {
      r.items.push(item);
    }
  }
}

/** Gemini parts: text, calls, thought parts whole (consecutive chunks joined), signatures. */
function readParts(parts, r, held) {
  for (const part of parts) {
    if (part.thought === true) {
      held.thought ??= { text: '', thought: true };
      held.thought.text += part.text ?? '';
      if (part.thoughtSignature) held.thought.thoughtSignature = part.thoughtSignature;
      continue;
    }
    if (held.thought) r.state.push(held.thought);
    held.thought = undefined;
    if (part.executableCode || part.codeExecutionResult) {
      r.items.push(part);
      continue;
    }
    if (part.thoughtSignature) r.state.push(part.thoughtSignature);
    if (typeof part.text === 'string') r.text += part.text;
    else if (part.functionCall) {
      // The id Gemini gave a call goes back with it: it is state too.
      if (part.functionCall.id !== undefined) r.state.push(part.functionCall.id);
      r.calls.push([part.functionCall.id ?? `call_${held.n}`, part.functionCall.name, part.functionCall.args ?? {}]);
      held.n += 1;
    }
  }
}

function readResponse(provider, body) {
  const r = { text: '', calls: [], state: [], items: [] };
  if (provider === 'anthropic-messages') {
    for (const b of body.content) {
      if (b.type === 'text') r.text += b.text;
      else if (b.type === 'tool_use') r.calls.push([b.id, b.name, b.input]);
      else if (b.type === 'thinking' || b.type === 'redacted_thinking') r.state.push(b);
      else r.items.push(b);
    }
  } else if (provider === 'openai-chat') {
    const m = body.choices[0].message;
    r.text += m.content ?? '';
    for (const c of m.tool_calls ?? []) r.calls.push([c.id, c.function.name, args(c.function.arguments)]);
  } else if (provider === 'openai-responses') {
    readOutput(body.output, r);
  } else if (provider === 'gemini') {
    const held = { n: 0 };
    readParts(body.candidates?.[0]?.content?.parts ?? [], r, held);
    if (held.thought) r.state.push(held.thought);
  } else {
    for (const b of body.output.message.content) {
      if (typeof b.text === 'string') r.text += b.text;
      else if (b.toolUse) r.calls.push([b.toolUse.toolUseId, b.toolUse.name, b.toolUse.input]);
      else if (b.reasoningContent) r.state.push(b);
    }
  }
  return r;
}

function readStream(provider, events) {
  const r = { text: '', calls: [], state: [], items: [] };
  if (provider === 'anthropic-messages') {
    const blocks = [];
    for (const e of events) {
      if (e.type === 'content_block_start') blocks.push({ index: e.index, block: { ...e.content_block }, json: '' });
      if (e.type !== 'content_block_delta') continue;
      const held = blocks.findLast((b) => b.index === e.index);
      const d = e.delta;
      if (d.type === 'text_delta') r.text += d.text;
      else if (d.type === 'input_json_delta') held.json += d.partial_json;
      else if (d.type === 'thinking_delta') held.block.thinking = (held.block.thinking ?? '') + d.thinking;
      else if (d.type === 'signature_delta') held.block.signature = (held.block.signature ?? '') + d.signature;
    }
    for (const { block, json } of blocks) {
      if (block.type === 'tool_use') r.calls.push([block.id, block.name, args(json)]);
      else if (block.type === 'thinking' || block.type === 'redacted_thinking') r.state.push(block);
      // A server tool's call (its input streamed as JSON text) or result.
      else if (block.type !== 'text') r.items.push(json ? { ...block, input: args(json) } : block);
    }
  } else if (provider === 'openai-chat') {
    const calls = new Map();
    for (const e of events) {
      const d = e.choices?.[0]?.delta;
      if (!d) continue;
      r.text += d.content ?? '';
      for (const c of d.tool_calls ?? []) {
        if (!calls.has(c.index)) calls.set(c.index, [c.id, '', '']);
        calls.get(c.index)[1] += c.function?.name ?? '';
        calls.get(c.index)[2] += c.function?.arguments ?? '';
      }
    }
    r.calls = [...calls.values()].map(([id, name, a]) => [id, name, args(a)]);
  } else if (provider === 'openai-responses') {
    readOutput(events.find((e) => e.type === 'response.completed').response.output, r);
  } else if (provider === 'gemini') {
    const held = { n: 0 };
    for (const e of events) readParts(e.candidates?.[0]?.content?.parts ?? [], r, held);
    if (held.thought) r.state.push(held.thought);
  } else {
    const calls = new Map();
    for (const e of events) {
      if (e.contentBlockStart?.start?.toolUse) {
        const t = e.contentBlockStart.start.toolUse;
        calls.set(e.contentBlockStart.contentBlockIndex, [t.toolUseId, t.name, '']);
      } else if (e.contentBlockDelta) {
        const d = e.contentBlockDelta.delta;
        if (typeof d.text === 'string') r.text += d.text;
        else if (d.toolUse) calls.get(e.contentBlockDelta.contentBlockIndex)[2] += d.toolUse.input;
      }
    }
    r.calls = [...calls.values()].map(([id, name, a]) => [id, name, args(a)]);
  }
  return r;
}

/** The package's message, in the terms of the independent reading. */
function readingOf(message) {
  return {
    text: message.content.map((b) => b.text ?? '').join(''),
    calls: (message.toolCalls ?? []).map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)]),
    state: (message.reasoningState?.items ?? []).map((i) => i.block ?? i.thoughtSignature ?? i.id),
    items: message.content.filter((b) => b.type === 'provider_item').map((b) => b.item),
  };
}

function assertSame(ours, theirs, name) {
  assert.equal(ours.text.trim(), theirs.text.trim(), name);
  assert.deepEqual(ours.calls, theirs.calls, name);
  assert.deepEqual(ours.state, theirs.state, name);
  assert.deepEqual(ours.items, theirs.items, `${name}: the provider's own items`);
}

// A CRC-32 and AWS event-stream frames, for Bedrock's stream written back.
const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function frame(kind, payload) {
  const enc = new TextEncoder();
  const headers = [];
  for (const [name, value] of [[':event-type', kind], [':content-type', 'application/json'], [':message-type', 'event']]) {
    const n = enc.encode(name);
    const v = enc.encode(value);
    headers.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v);
  }
  const body = enc.encode(payload);
  const total = 12 + headers.length + body.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headers.length);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  out.set(headers, 12);
  out.set(body, 12 + headers.length);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)));
  return out;
}

function wire(provider, events) {
  const enc = new TextEncoder();
  const pieces = events.map((e) => {
    if (provider === 'bedrock-converse') {
      const [kind, payload] = Object.entries(e)[0];
      return frame(kind, JSON.stringify(payload));
    }
    const named = provider === 'anthropic-messages' || provider === 'openai-responses';
    return enc.encode(`${named ? `event: ${e.type}\n` : ''}data: ${JSON.stringify(e)}\n\n`);
  });
  if (provider === 'openai-chat') pieces.push(enc.encode('data: [DONE]\n\n'));
  return Buffer.concat(pieces);
}

test('parseResponse reads every captured answer with its reasoning state', () => {
  let count = 0;
  for (const capture of captures) {
    const body = read(capture, 'response.json');
    if (body === undefined) continue;
    const result = responsePkg.parseResponse(capture.provider, body);
    assert.equal(result.ok, true, `${capture.name}: ${JSON.stringify(result.errors)}`);
    assertSame(readingOf(result.message), readResponse(capture.provider, JSON.parse(body)), capture.name);
    count += 1;
  }
  assert.ok(count >= 17, `only ${count} answers`);
});

test('createStreamDecoder decodes every captured stream in small pieces with its reasoning state', () => {
  let count = 0;
  for (const capture of captures) {
    const text = read(capture, 'response-streaming.json');
    if (text === undefined) continue;
    const events = JSON.parse(text);
    const bytes = wire(capture.provider, events);
    const piece = bytes.length > 1 << 20 ? 4093 : 61;
    const decoder = agui.createStreamDecoder(capture.provider, { threadId: 't', runId: 'r' });
    for (let at = 0; at < bytes.length; at += piece) decoder.push(bytes.subarray(at, at + piece));
    const done = decoder.finish();
    assert.equal(done.ok, true, `${capture.name}: ${JSON.stringify(done.error)}`);
    assertSame(readingOf(done.message), readStream(capture.provider, events), capture.name);
    count += 1;
  }
  assert.ok(count >= 18, `only ${count} streams`);
});
