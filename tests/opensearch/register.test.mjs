// `agent-input register-plan --format curl` scripts run against a real ml-commons, for each
// provider: the unified call and the legacy three calls (connector, model, agent). The agents they
// create execute, and a legacy agent sends the provider exactly the body `register-plan --preview`
// predicts.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { PROVIDERS, call, cli, startProviderStub, url } from './cluster.mjs';

const QUESTION = 'What is the weather in Paris?';

let stub;
let dir;
before(async () => {
  stub = await startProviderStub();
  dir = mkdtempSync(join(tmpdir(), 'agent-input-register-'));
});
after(async () => {
  await stub?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `value` as JSON into the test's folder; its path. */
function file(name, value) {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

for (const provider of PROVIDERS) {
  for (const api of ['unified', 'legacy']) {
    test(`${api} registration on ${provider.id}: the script registers an agent that executes`, async () => {
      const model = `register-${api}-${provider.id}`;
      const registration = file(`${model}.json`, {
        name: `Weather ${api} ${provider.id}`,
        type: 'conversational',
        model: { model_id: model, model_provider: provider.mlCommons, credential: provider.credential, model_parameters: { max_tokens: 100 } },
        memory: { type: 'conversation_index' },
      });
      const plan = cli(['register-plan', registration, '--version', '3.6', '--api', api, '--format', 'curl']);
      assert.equal(plan.status, 0, plan.stderr);
      const script = spawnSync('bash', ['-c', plan.stdout], { env: { ...process.env, OPENSEARCH_URL: url }, encoding: 'utf8' });
      assert.equal(script.status, 0, `${script.stderr}\n${script.stdout}`);
      const agent = script.stdout.trim().split('\n').at(-1);
      assert.match(agent, /^[\w-]{10,}$/, script.stdout);

      // A unified agent takes the standard input; a legacy one reads parameters.question.
      const request = api === 'unified' ? { input: QUESTION } : { parameters: { question: QUESTION } };
      stub.take(model);
      const answer = await call('POST', `/_plugins/_ml/agents/${agent}/_execute`, request);
      assert.equal(answer.status, 200, answer.text);
      const sent = stub.take(model);
      assert.equal(sent.length, 1, 'one provider call');
      const body = JSON.parse(sent[0].body);
      assert.ok(sent[0].body.includes(QUESTION), sent[0].body);
      const memory = answer.json.inference_results[0].output.find((o) => o.name === 'memory_id').result;
      const messages = (await call('GET', `/_plugins/_ml/memory/${memory}/messages`)).json.messages;
      assert.equal(messages[0].input, QUESTION);

      if (api === 'legacy') {
        // The connector's template filled as ml-commons fills it: the body the provider got.
        const preview = cli(['register-plan', registration, '--version', '3.6', '--api', 'legacy', '--preview', file(`${model}-request.json`, request)]);
        assert.equal(preview.status, 0, preview.stderr);
        assert.deepEqual(body, JSON.parse(preview.stdout).body);
      }
    });
  }
}
