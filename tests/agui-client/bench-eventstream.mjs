// The same AWS event-stream body as the gateway's `decoder_throughput` example, decoded by
// `@smithy/eventstream-codec` the way the AWS SDK reads a ConverseStream: getChunkedStream splits
// 16 KiB chunks into messages, EventStreamCodec.decode checks both CRCs and reads the headers,
// and (for the whole decoder) each payload is parsed as JSON. MB/s = 10^6 bytes/s, best of 7.
//
//   cargo run --release -p agent-gateway --example decoder_throughput target/bedrock-stream.bin
//   node tests/agui-client/bench-eventstream.mjs target/bedrock-stream.bin
import { readFileSync } from 'node:fs';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { getChunkedStream } from '@smithy/core/event-streams';

const body = readFileSync(process.argv[2]);
const CHUNK = 16 * 1024;
const decoder = new TextDecoder();
const codec = new EventStreamCodec((bytes) => decoder.decode(bytes), (text) => new TextEncoder().encode(text));

async function* chunks() {
  for (let i = 0; i < body.length; i += CHUNK) yield body.subarray(i, i + CHUNK);
}

async function run(parse) {
  let count = 0;
  for await (const frame of getChunkedStream(chunks())) {
    const message = codec.decode(frame);
    if (parse) JSON.parse(decoder.decode(message.body));
    count += 1;
  }
  return count;
}

async function best(parse) {
  let fastest = Infinity;
  for (let i = 0; i < 7; i += 1) {
    const start = process.hrtime.bigint();
    await run(parse);
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return body.length / 1e6 / fastest;
}

console.log(`@smithy/eventstream-codec framing (CRCs, headers): ${(await best(false)).toFixed(1)} MB/s`);
console.log(`@smithy/eventstream-codec + JSON.parse of each payload: ${(await best(true)).toFixed(1)} MB/s`);
