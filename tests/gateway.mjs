// A real agent-gateway for the Node tests (playground, AG-UI client): the built binary on a free
// port of 127.0.0.1 with a temporary database, stopped gracefully by the test.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function gatewayBinary() {
  const candidates = [
    process.env.AGENT_GATEWAY_BIN,
    join(repo, 'target', 'debug', 'agent-gateway'),
    join(repo, 'target', 'release', 'agent-gateway'),
  ].filter(Boolean);
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`no agent-gateway binary (tried ${candidates.join(', ')}); cargo build -p agent-gateway`);
  return found;
}

/** A port nothing listens on right now. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * Starts agent-gateway on 127.0.0.1 with a temporary database and the extra arguments `args`;
 * resolves once it answers. `stop()` ends it and removes its database.
 */
export async function startGateway(args = []) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'agent-input-gateway-'));
  const child = spawn(gatewayBinary(), ['--listen', `127.0.0.1:${port}`, '--db', join(dir, 'gateway.db'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`agent-gateway exited: ${output}`);
    try {
      const response = await fetch(`${base}/_plugins/_ml/agents/echo`);
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`agent-gateway did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    port,
    output: () => output,
    async stop() {
      // A graceful stop that hangs is a failure, not something to paper over with SIGKILL.
      let hung = false;
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', () => r(true)));
        child.kill('SIGTERM');
        const timeout = new Promise((r) => setTimeout(() => r(false), 10_000).unref());
        if (!(await Promise.race([exited, timeout]))) {
          hung = true;
          child.kill('SIGKILL');
          await exited;
        }
      }
      rmSync(dir, { recursive: true, force: true });
      if (hung) throw new Error(`agent-gateway did not stop within 10 s of SIGTERM: ${output}`);
    },
  };
}
