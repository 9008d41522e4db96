// Two builds of the package side by side: `convertJson` of each one's Node module (node.js) on
// the 2,000-message conversation in four kinds of text: plain ASCII, with escapes only (quotes
// and line breaks), with non-ASCII letters only, and as people write it (both, and an emoji).
// Both are loaded in one process and take turns call by call, the order swapped each time; the
// two bodies are checked to be the same text first.
//
// Run: node bench/npm/builds.mjs <package before> <package after>
//      (each a folder built by scripts/build-npm, e.g. a copy of target/npm/agent-input)

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dirs = process.argv.slice(2, 4);
if (dirs.length !== 2) throw new Error('usage: node bench/npm/builds.mjs <package before> <package after>');
const [before, after] = await Promise.all(dirs.map((d) => import(pathToFileURL(resolve(d, 'node.js')).href)));

/** The conversation: 2,000 messages taking turns, then a last user message. */
function conversation(text) {
  const input = Array.from({ length: 2000 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: [{ type: 'text', text: text(i) }],
  }));
  input.push({ role: 'user', content: [{ type: 'text', text: 'And finally?' }] });
  return JSON.stringify({ input });
}

const TEXTS = {
  ascii: (i) => `Turn ${i}: please summarise the previous answer in two sentences and add one new fact.`,
  escapes: (i) => `Turn ${i}: please "summarise" the previous answer\nin two sentences and add one new fact.`,
  'non-ascii': (i) => `Tour ${i} : résumez la réponse précédente en deux phrases — et ajoutez un fait sur Zürich ou 東京.`,
  real: (i) =>
    i % 2
      ? `Answer ${i}: here's what we discussed:\n- the "main point", in short;\n- one more fact: the café in Kraków opened in 1852 🙂`
      : `Turn ${i}: could you summarise "the previous answer" in two sentences?\nAlso add one new fact — about Zürich, São Paulo or 東京.`,
};

// The median, and the tenth percentile: on a machine busy with other work the median includes
// the calls that waited for a core; the lower percentile is nearer what the call itself costs.
const quantile = (times, q) => times.sort((a, b) => a - b)[Math.floor(times.length * q)];
console.log(`convertJson, median (and 10th percentile) of 500 calls each; Node ${process.version}\n`);
for (const provider of ['bedrock-converse', 'openai-chat', 'openai-responses', 'anthropic-messages', 'gemini']) {
  for (const [name, text] of Object.entries(TEXTS)) {
    const request = conversation(text);
    const [a, b] = [before, after].map((m) => m.convertJson(request, { provider }));
    if (!a.ok || a.body !== b.body) throw new Error(`${provider} ${name}: the two builds' bodies differ`);
    for (let i = 0; i < 100; i++) for (const m of [before, after]) m.convertJson(request, { provider });
    const times = [[], []];
    for (let i = 0; i < 500; i++) {
      for (const k of i % 2 ? [0, 1] : [1, 0]) {
        const start = performance.now();
        [before, after][k].convertJson(request, { provider });
        times[k].push(performance.now() - start);
      }
    }
    const [tBefore, tAfter] = times.map((t) => quantile(t, 0.5));
    const [pBefore, pAfter] = times.map((t) => quantile(t, 0.1));
    console.log(
      `${provider.padEnd(19)} ${name.padEnd(9)}  before ${tBefore.toFixed(2).padStart(6)} ms  after ${tAfter.toFixed(2).padStart(6)} ms  ${(tBefore / tAfter).toFixed(2)}x` +
        `   (p10 ${pBefore.toFixed(2)} → ${pAfter.toFixed(2)} ms, ${(pBefore / pAfter).toFixed(2)}x)`,
    );
  }
}
