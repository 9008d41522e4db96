// The declarations of `agent-input/import`: `importRequest`, declared here with one signature per
// form of its options, so each call's result has the type of what it returns, and the providers'
// facts a page shows (`providers`, `providerForUrl`, `providerForBody`).
import type {
  ConvertJsonResult,
  ConvertResult,
  ImportOptions,
  ImportResult,
  MlCommonsProviderName,
  ProviderId,
  ProviderInfo,
  ProviderRequest,
} from './agent_input_import.js';

type Provider = ProviderId | MlCommonsProviderName;

/**
 * Reads a provider's request body (JSON text, or the value itself) into the standard request and
 * the options it implies: `{ ok, request, options, errors, warnings }`. Every problem is at a
 * JSON Pointer into the given body.
 */
export function importRequest(provider: Provider, body: unknown, options?: { to?: undefined; only?: undefined }): ImportResult<undefined>;
/** With `{ to }`: also `body`, the request converted to that provider. */
export function importRequest(provider: Provider, body: unknown, options: { to: Provider; only?: undefined }): ImportResult<ProviderRequest>;
/** With `{ to, only: "body" }`: that provider's body alone, as `convert` reports one. */
export function importRequest(provider: Provider, body: unknown, options: { to: Provider; only: 'body' }): ConvertResult;
/** With `{ to, only: "bodyJson" }`: that provider's body alone as JSON text, as `convertJson` reports one. */
export function importRequest(provider: Provider, body: unknown, options: { to: Provider; only: 'bodyJson' }): ConvertJsonResult;
/** Options not known until run time: any of the results above. */
export function importRequest(
  provider: Provider,
  body: unknown,
  options?: ImportOptions,
): ImportResult | ConvertResult | ConvertJsonResult;

/** Every provider: its id (what `importRequest` takes) and its name for people. */
export function providers(): ProviderInfo[];

/**
 * The provider whose API an endpoint URL names, read from its path (`…/chat/completions`,
 * `…/responses`, `…/messages`, `…:generateContent`, `…/model/{id}/converse`, and the streaming
 * forms); `null` when none.
 */
export function providerForUrl(url: string): ProviderId | null;

/**
 * The provider a request body's shape names (JSON text, or the value itself), when one alone
 * fits; `null` when the body is not a JSON object, fits none, or has the marks of more than one.
 */
export function providerForBody(body: unknown): ProviderId | null;

export type {
  AgentInput,
  ConvertJsonResult,
  ConvertResult,
  Diagnostic,
  ImportOptions,
  ImportResult,
  MlCommonsProviderName,
  ProviderId,
  ProviderInfo,
  ProviderRequest,
  ValidationError,
  ValidationWarning,
} from './agent_input_import.js';
