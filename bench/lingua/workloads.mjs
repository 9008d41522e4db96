// The four workloads of the core's benchmark (crates/agent-input/benches/pipeline.rs) written as
// OpenAI Chat Completions request bodies: images as `image_url` data URLs, PDFs as `file` parts
// with a `file_data` data URL, tool calls as `tool_calls` and `tool` messages. The same requests
// as crates/agent-input/benches/import.rs builds natively (same texts, same bytes).

import { PDF, PNG, payload } from '../payload.mjs';

/** The one tool every workload declares (pipeline.rs passes it as an option). */
export const TOOLS = [
  { type: 'function', function: { name: 'lookup', description: 'Look something up', parameters: { type: 'object' } } },
];

const request = (messages) => ({ model: 'gpt-4o', messages, tools: TOOLS });
const image = (data) => ({ type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } });

/** 20,000 small text requests. */
export function smallText() {
  return Array.from({ length: 20_000 }, (_, i) =>
    request([{ role: 'user', content: `Question number ${i}: what is the capital of France?` }]),
  );
}

/** One request with a 3.5 MB image. */
export function bigImage() {
  return [request([{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, image(payload(PNG, 3_500_000, 7))] }])];
}

/** A 2,000-message conversation. */
export function longConversation() {
  const messages = [];
  for (let i = 0; i < 1000; i++) {
    messages.push({ role: 'user', content: `Turn ${i}: please summarise the previous answer in two sentences and add one new fact.` });
    messages.push({ role: 'assistant', content: `Answer ${i}: here is a summary of what we discussed, with one more fact about the topic at hand.` });
  }
  messages.pop();
  messages.push({ role: 'user', content: 'And finally?' });
  return [request(messages)];
}

/** 10 turns carrying 20 images of 150 KB and 2 PDFs of 500 KB in all, with tool use. */
export function multimodal() {
  const messages = [];
  let seed = 1;
  for (let turn = 0; turn < 10; turn++) {
    const content = [{ type: 'text', text: `Turn ${turn}: compare these.` }];
    for (let k = 0; k < 2; k++) content.push(image(payload(PNG, 150_000, ++seed)));
    if (turn % 5 === 0) {
      const data = payload(PDF, 500_000, ++seed);
      content.push({ type: 'file', file: { filename: `report ${turn}.pdf`, file_data: `data:application/pdf;base64,${data}` } });
    }
    messages.push({ role: 'user', content });
    if (turn < 9) {
      messages.push({
        role: 'assistant',
        content: 'Noted.',
        tool_calls: [{ id: `call-${turn}`, type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
      });
      messages.push({ role: 'tool', tool_call_id: `call-${turn}`, content: 'found' });
    }
  }
  return [request(messages)];
}

export const WORKLOADS = [
  ['small_text_x20000', smallText],
  ['image_3_5mb', bigImage],
  ['conversation_2000', longConversation],
  ['multimodal_10_turns', multimodal],
];
