// "Shrink to fit": an image drawn smaller in the browser and written in its own format (PNG stays
// PNG, JPEG and WebP stay JPEG and WebP at quality 0.9), within the longest side and the bytes the
// provider takes: scaled to the side, and for bytes by the square root of the share that fits (a
// tenth less, for the encoder), then a fifth smaller again until it fits. `done` gets JSON text:
// `{ data, width, height, bytes, preview }`, or `{ error }`. Imported by modules.js (from shrink/)
// the first time the button is clicked, so it is not part of the first download.
export function shrinkToFit(data, type, maxSide, maxBytes, done) {
  shrink(data, type, maxSide, maxBytes).then(
    (result) => done(JSON.stringify(result)),
    (error) => done(JSON.stringify({ error: String(error?.message ?? error) })),
  );
}

async function shrink(data, type, maxSide, maxBytes) {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const image = await createImageBitmap(new Blob([bytes], { type }));
  const { width, height } = image;
  let scale = maxSide > 0 ? Math.min(1, maxSide / Math.max(width, height)) : 1;
  if (maxBytes > 0) scale = Math.min(scale, Math.sqrt(maxBytes / bytes.length) * 0.9);
  for (let attempt = 0; attempt < 8; attempt += 1, scale *= 0.8) {
    const w = Math.max(1, Math.floor(width * scale));
    const h = Math.max(1, Math.floor(height * scale));
    const canvas = new OffscreenCanvas(w, h);
    const context = canvas.getContext('2d');
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, w, h);
    const blob = await canvas.convertToBlob({ type, quality: 0.9 });
    // A canvas writes PNG for a type it cannot encode (Safari and WebP).
    if (blob.type !== type) throw new Error(`this browser cannot write ${type} images`);
    if ((maxSide <= 0 || Math.max(w, h) <= maxSide) && (maxBytes <= 0 || blob.size <= maxBytes)) {
      const out = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (let at = 0; at < out.length; at += 32768) binary += String.fromCharCode(...out.subarray(at, at + 32768));
      image.close();
      return { data: btoa(binary), width: w, height: h, bytes: out.length, preview: URL.createObjectURL(blob) };
    }
  }
  image.close();
  throw new Error('it did not fit in 8 attempts');
}
