// The benches' media: deterministic pseudo-random bytes after a real signature (xorshift64, the
// same bytes as crates/agent-input/benches/support/payload.rs), so every run converts the same
// input natively and in WebAssembly.

/** `len` deterministic pseudo-random bytes after `signature`, base64. */
export function payload(signature, len, seed) {
  const bytes = new Uint8Array(len + 8);
  bytes.set(signature);
  const view = new DataView(bytes.buffer);
  let x = BigInt(seed) | 1n;
  const mask = (1n << 64n) - 1n;
  for (let at = signature.length; at < len; at += 8) {
    x ^= (x << 13n) & mask;
    x ^= x >> 7n;
    x ^= (x << 17n) & mask;
    view.setBigUint64(at, x, true);
  }
  return Buffer.from(bytes.subarray(0, len)).toString('base64');
}

/** A PNG's signature. */
export const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A PDF's signature. */
export const PDF = [...Buffer.from('%PDF-1.7\n')];
