// `metaserver check-server` against a server whose host drops SYNs (a loopback port whose
// accept queue is full, test/support/blackhole-port.ts): the first call ends at the
// deadline, saying the connection was not accepted, and the other articles are not sent —
// the command once waited for the kernel to give up on each of its 7 calls (7 × ~130 s).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheckServerCommand } from '../../src/cli/check-server.ts';
import { startBlackholePort, type BlackholePort } from '../support/blackhole-port.ts';

let blackhole: BlackholePort;

beforeAll(async () => {
  blackhole = await startBlackholePort('/RPC2');
});
afterAll(() => blackhole?.close());

async function run(args: string[]): Promise<{ code: number; out: string; ms: number }> {
  const lines: string[] = [];
  const started = Date.now();
  const code = await runCheckServerCommand(args, (line) => lines.push(line));
  return { code, out: lines.join('\n'), ms: Date.now() - started };
}

describe('metaserver check-server, the connect black-holed', () => {
  it.each(['xmlrpc', 'json'])(
    '%s: ends within the --timeout, one call made, and says why',
    async (protocol) => {
      const { code, out, ms } = await run([blackhole.url, '--protocol', protocol, '--timeout', '2']);
      // The deadline, and the agent's close once its connect has given up at the same deadline.
      expect(ms).toBeLessThan(4_000);
      expect(code).toBe(1);
      expect(out.match(/^CONNECTION +\d+ ms {2}setup article/gm)).toHaveLength(1);
      expect(out).toMatch(
        /did not accept a connection within the deadline of 2 s; nothing was sent — is the host up, and is the port open to us\?/,
      );
      expect(out).toMatch(/^0 of 1 answers valid/m);
      expect(out).toMatch(/^The server could not be reached, so nothing else was sent\.$/m);
    },
    10_000,
  );
});
