// A TypeScript consumer of the entries `agent-input/agui` and `agent-input/register`: it must
// type-check under `strict` with the package's own declarations (agui-register-types.test.mjs
// compiles it with tsc), and each `@ts-expect-error` proves a type is precise rather than `any`.
import {
  createStreamDecoder,
  fromAgUi,
  toAgUi,
  type AgUiEvent,
  type AgUiStreamDecoder,
  type FromAgUiResult,
  type RunAgentInput,
  type StreamFinish,
  type ToAgUiResult,
} from 'agent-input/agui';
import {
  planRegistration,
  predictMlCommons,
  previewRegistration,
  type MlCommonsPrediction,
  type RegistrationPlan,
  type RegistrationPreview,
  type RegistrationStep,
} from 'agent-input/register';
import { convert } from 'agent-input';

const body: RunAgentInput = {
  threadId: 't',
  runId: 'r',
  state: {},
  messages: [{ id: 'm', role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
  context: [],
  forwardedProps: {},
};
const read: FromAgUiResult = fromAgUi(body);
if (read.ok) {
  const converted = convert(read.request, { provider: 'gemini', tools: read.tools });
  void converted;
  const thread: string = read.request.parameters.memory_id;
  void thread;
} else {
  const path: string = read.errors[0].path;
  void path;
}
const written: ToAgUiResult = toAgUi({ input: 'Hi' }, { threadId: 't', runId: 'r' });
// A provider's own tool is taken (and left out with a warning), as `convert` takes it.
toAgUi({ input: 'Hi' }, { tools: [{ name: 'lookup' }, { type: 'provider_tool', provider: 'gemini', tool: { googleSearch: {} } }] });
if (written.ok) {
  const again: RunAgentInput = written.body;
  void again;
}

const decoder: AgUiStreamDecoder = createStreamDecoder('bedrock-converse', { threadId: 't', maxFrameBytes: 1 << 20 });
const events: AgUiEvent[] = decoder.push(new Uint8Array([1, 2, 3]));
for (const event of events) {
  if (event.type === 'TEXT_MESSAGE_CONTENT') {
    const delta: string = event.delta;
    void delta;
  }
  if (event.type === 'REASONING_ENCRYPTED_VALUE') {
    const entity: 'message' | 'tool-call' = event.subtype;
    const value: string = event.encryptedValue;
    void entity, value;
  }
  const when: number = event.timestamp;
  void when;
}
// Reasoning state comes back on the assistant message and its tool calls.
const signed: RunAgentInput = {
  ...body,
  messages: [
    { id: 'a', role: 'assistant', encryptedValue: '{}', toolCalls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, encryptedValue: '{}' }] },
    { id: 'r', role: 'reasoning', content: 'Thinking.' },
  ],
};
void signed;
const finish: StreamFinish = decoder.finish();
if (finish.ok) {
  const stop: string | null = finish.stopReason;
  void stop;
} else {
  const code: string = finish.error.code;
  void code;
}
// @ts-expect-error: not a provider
createStreamDecoder('bedrock');
// @ts-expect-error: bytes, not text
decoder.push('data: {}');
// @ts-expect-error: not an AG-UI message role
const badRole: RunAgentInput = { ...body, messages: [{ id: 'm', role: 'robot', content: 'x' }] };
void badRole;

const plan: RegistrationPlan = planRegistration({ name: 'a', type: 'conversational', model: { model_id: 'm', model_provider: 'bedrock/converse' } }, { version: '3.4' });
if (plan.ok) {
  const step: RegistrationStep = plan.steps[0];
  const method: 'POST' | 'PUT' = step.method;
  void method;
}
// @ts-expect-error: the version is a string ("3.10" is not 3.1)
planRegistration('{}', { version: 3.4 });
// @ts-expect-error: not an API
planRegistration('{}', { api: 'new' });
const preview: RegistrationPreview = previewRegistration('{}', { input: 'Hi' });
void preview;
const predicted: MlCommonsPrediction = predictMlCommons({ input: 'Hi' }, { provider: 'gemini', agentType: 'ag_ui', mlCommonsVersion: '3.7' });
if (predicted.ok) {
  const body: string = predicted.parameters.body;
  void body;
}
// @ts-expect-error: not an agent type
predictMlCommons('{}', { provider: 'gemini', agentType: 'chat' });
// @ts-expect-error: the provider is required
predictMlCommons('{}', {});
