// Encodes the frames described in frames.json with @smithy/eventstream-codec — an encoder
// independent of this crate — into the .bin fixtures the Rust tests compare their own frames with.
//
//   cd /tmp/x && npm install @smithy/eventstream-codec@4.5.2 @smithy/util-utf8
//   NODE_PATH=/tmp/x/node_modules node make_frames.cjs
const fs = require("node:fs");
const path = require("node:path");
const { EventStreamCodec, Int64 } = require("@smithy/eventstream-codec");
const { toUtf8, fromUtf8 } = require("@smithy/util-utf8");

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const spec = JSON.parse(fs.readFileSync(path.join(__dirname, "frames.json"), "utf8"));

function header([, type, value]) {
  switch (type) {
    case "long":
      return { type, value: Int64.fromNumber(value) };
    case "binary":
      return { type, value: new Uint8Array(Buffer.from(value, "base64")) };
    case "timestamp":
      return { type, value: new Date(value) };
    default:
      return { type, value };
  }
}

for (const [file, frames] of Object.entries(spec)) {
  const bytes = frames.map((frame) => {
    const headers = {};
    for (const h of frame.headers) headers[h[0]] = header(h);
    return Buffer.from(codec.encode({ headers, body: fromUtf8(frame.payload) }));
  });
  fs.writeFileSync(path.join(__dirname, file), Buffer.concat(bytes));
  // Decode back with the same library: the fixture is what it says it is.
  let offset = 0;
  for (const frame of bytes) {
    const decoded = codec.decode(frame);
    if (toUtf8(decoded.body) !== frames[bytes.indexOf(frame)].payload) throw new Error(`${file}: round trip`);
    offset += frame.length;
  }
  console.log(`${file}: ${frames.length} frames, ${offset} bytes`);
}
