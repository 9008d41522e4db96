// Two builds of the package, timed alternately with convertJson on workloads shaped like
// bench.mjs's (the conversation's texts shorter, no tool calls), Bedrock and OpenAI Chat, so a before/after comparison survives a busy machine: bench.mjs runs each
// side once and its figures move by tens of percent between runs on a shared 2-core machine.
//
// Run: node bench/npm/compare.mjs BEFORE_PACKAGE_DIR AFTER_PACKAGE_DIR
//      (each a scripts/build-npm output folder, e.g. built from a git worktree of main)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { PDF, PNG, payload } from '../payload.mjs';

if (process.argv.length < 4) throw new Error('usage: node bench/npm/compare.mjs BEFORE_PACKAGE_DIR AFTER_PACKAGE_DIR');
const A = await import(pathToFileURL(resolve(process.argv[2], 'node.js')).href);
const B = await import(pathToFileURL(resolve(process.argv[3], 'node.js')).href);
const small = Array.from({ length: 20000 }, (_, i) => JSON.stringify({ input: `Question number ${i}: what is the capital of France?`, parameters: { verbose: true } }));
const image = [JSON.stringify({ input: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', source: { type: 'base64', format: 'png', data: payload(PNG, 3500000, 7) } }] })];
const msgs = []; for (let i = 0; i < 1000; i++) { msgs.push({ role: 'user', content: [{ type: 'text', text: `Turn ${i}: please summarise.` }] }); msgs.push({ role: 'assistant', content: [{ type: 'text', text: `Answer ${i}: summary.` }] }); } msgs.pop(); msgs.push({ role: 'user', content: [{ type: 'text', text: 'And finally?' }] });
const conv = [JSON.stringify({ input: msgs })];
const mm = []; let seed = 1; for (let t = 0; t < 10; t++) { const c = [{ type: 'text', text: `Turn ${t}` }]; for (let k = 0; k < 2; k++) c.push({ type: 'image', source: { type: 'base64', format: 'png', data: payload(PNG, 150000, ++seed) } }); if (t % 5 === 0) c.push({ type: 'document', name: `r${t}.pdf`, source: { type: 'base64', format: 'pdf', data: payload(PDF, 500000, ++seed) } }); mm.push({ role: 'user', content: c }); if (t < 9) mm.push({ role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] }); }
const multi = [JSON.stringify({ input: mm })];
const TOOLS = [{ name: 'lookup', description: 'Look something up', inputSchema: { type: 'object' } }];
const run = (pkg, texts, options) => { const t = performance.now(); for (const x of texts) { const r = pkg.convertJson(x, options); if (!r.ok) throw new Error(JSON.stringify(r.errors)); } return performance.now() - t; };
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
for (const provider of ['bedrock-converse', 'openai-chat']) {
  const options = { provider, tools: TOOLS };
  for (const [name, texts, rounds] of [['small_text_x20000', small, 9], ['image_3_5mb', image, 31], ['conversation_2000', conv, 31], ['multimodal_10_turns', multi, 31]]) {
    run(A, texts, options); run(B, texts, options);
    const a = [], b = [];
    for (let i = 0; i < rounds; i++) { a.push(run(A, texts, options)); b.push(run(B, texts, options)); }
    console.log(`${provider.padEnd(17)} ${name.padEnd(20)} before ${med(a).toFixed(2).padStart(8)} ms  after ${med(b).toFixed(2).padStart(8)} ms  after/before ${(med(b) / med(a)).toFixed(3)}`);
  }
}
