// convertJson with large payloads put back in JavaScript. The module writes the body with the
// escape \uFFFF where each large base64 payload of the request goes (the module checks that the
// body holds no other) and says
// where in the request string each payload is; the body is then joined from slices of that
// string, so the megabytes are neither written into the body in wasm memory nor decoded back
// out of it (docs/decisions/npm.md, "Limits before copies, and payloads spliced in JavaScript").
// Node's module leaves texts out the same way where the request holds them as the body does
// (non-ASCII text, and text whose escapes are as the body writes them), so text in a request of
// 16 Ki characters or more is not decoded out of wasm memory either.
// The module returns the body text alone when there is nothing to report; the result is made
// here, rather than written as JSON in wasm and parsed.
export function splicing(convertJsonRaw, takeSplices) {
  const convertJson = (text, options) => {
    const result = convertJsonRaw(text, options);
    return typeof result === 'string' ? { ok: true, body: result, errors: [], warnings: [] } : result;
  };
  return function (text, options) {
    // Only payloads of 16 KiB and more are left out; shorter text has none (and skips a call).
    if (!(text?.length >= 16384)) return convertJson(text, options);
    const result = convertJson(text, options);
    const spans = takeSplices();
    if (spans.length === 0 || !result.ok) return result;
    const parts = result.body.split('\\uFFFF');
    let body = parts[0];
    for (let i = 0, p = 1; i < spans.length; i += 2, p += 1) {
      body += text.slice(spans[i], spans[i] + spans[i + 1]) + parts[p];
    }
    result.body = body;
    return result;
  };
}
