// A TypeScript consumer of the results that narrow on `ok`: `convert`, `convertJson` and each form
// of `importRequest` (import-types.test.mjs compiles it with tsc, as a Node project without the
// DOM library and as a browser project). Each `@ts-expect-error` proves a type is precise: what
// holds only after `if (result.ok)` does not hold before it.
import { convert, convertJson, type AgentInput, type ConvertResult, type ProviderRequest } from 'agent-input';
import {
  importRequest,
  providerForBody,
  providerForUrl,
  providers,
  type ConvertJsonResult,
  type ImportOptions,
  type ImportResult,
  type ProviderId,
  type ProviderInfo,
  type ValidationError,
} from 'agent-input/import';

const text = '{"model": "gpt-5", "messages": [{"role": "user", "content": "Hi"}]}';

// Without a target: the standard request, and no body.
const imported = importRequest('openai-chat', text);
// @ts-expect-error: `request` may be null until `ok` is known
void imported.request.input;
if (imported.ok) {
  const input: AgentInput = imported.request.input;
  const none: [] = imported.errors;
  const noBody: undefined = imported.body;
  void [input, none, noBody];
} else {
  const errors: ValidationError[] = imported.errors;
  const request: { input?: AgentInput } | null = imported.request;
  void [errors, request];
}

// With a target: the body too, present exactly when `ok`.
const translated: ImportResult<ProviderRequest> = importRequest('openai-chat', JSON.parse(text), { to: 'gemini' });
// @ts-expect-error: the body is null when the import failed
const early: ProviderRequest = translated.body;
if (translated.ok) {
  const body: ProviderRequest = translated.body;
  if ('contents' in body) {
    const role: 'user' | 'model' | undefined = body.contents[0]?.role;
    void role;
  }
  const input: AgentInput = translated.request.input;
  void [body, input];
} else {
  const body: null = translated.body;
  void body;
}

// The body alone, as a value: the same result as `convert`'s.
const alone: ConvertResult = importRequest('openai-chat', text, { to: 'anthropic-messages', only: 'body' });
// @ts-expect-error: no standard request in the body-only result
void alone.request;
if (alone.ok) {
  const body: ProviderRequest = alone.body;
  void body;
} else {
  const body: undefined = alone.body;
  void body;
}

// The body alone as JSON text: the same result as `convertJson`'s, ready to send.
const sent: ConvertJsonResult = importRequest('openai-chat', text, { to: 'bedrock/converse', only: 'bodyJson' });
// @ts-expect-error: no body text until `ok` is known
const early2: string = sent.body;
if (sent.ok) {
  const body: string = sent.body;
  void body;
}

// Options only known at run time: any of the results, still narrowing on `ok`.
const options: ImportOptions = JSON.parse('{"to": "gemini"}') as ImportOptions;
const either = importRequest('openai-chat', text, options);
if (either.ok) {
  const none: [] = either.errors;
  void none;
}

// @ts-expect-error: `only` needs `to`
importRequest('openai-chat', text, { only: 'body' });
// @ts-expect-error: not a form of the result
importRequest('openai-chat', text, { to: 'gemini', only: 'request' });
// @ts-expect-error: a body-only result is not an import result
const wrong: ImportResult = importRequest('openai-chat', text, { to: 'gemini', only: 'body' });

// The conversions narrow the same way.
const converted = convert({ input: 'Hi' }, { provider: 'gemini' });
// @ts-expect-error: no body until `ok` is known
const early3: ProviderRequest = converted.body;
if (converted.ok) {
  const body: ProviderRequest = converted.body;
  void body;
}
const json = convertJson('{"input": "Hi"}', { provider: 'openai-chat' });
if (!json.ok) {
  const errors: ValidationError[] = json.errors;
  void errors;
}

void [early, early2, early3, wrong];

// The providers' facts: ids `importRequest` takes, and `null` where nothing is recognised.
const listed: ProviderInfo[] = providers();
const firstId: ProviderId | undefined = listed[0]?.id;
const byUrl = providerForUrl('https://api.openai.com/v1/chat/completions');
// @ts-expect-error: no provider may be recognised
const sureUrl: ProviderId = byUrl;
if (byUrl !== null) importRequest(byUrl, text);
const byBody: ProviderId | null = providerForBody({ contents: [] });
// @ts-expect-error: a URL is a string
providerForUrl(new URL('https://example.com'));
void [firstId, sureUrl, byBody];
