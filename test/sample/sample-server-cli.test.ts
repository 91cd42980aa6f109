// `metaserver sample-server`: run in a child process (it waits for SIGINT/SIGTERM), wait
// for the ready line, call it, stop it with SIGTERM and check it exits cleanly.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { runSampleServerCommand } from '../../src/cli/sample-server.ts';
import { callXmlRpc } from '../../src/dispatch/annotators/xmlrpc-call.ts';
import { encodeMethodCall } from '../../src/xmlrpc/codec.ts';

const runner = `
  const { runSampleServerCommand } = await import(${JSON.stringify(new URL('../../src/cli/sample-server.ts', import.meta.url).href)});
  process.exitCode = await runSampleServerCommand(process.argv.slice(1));
`;

describe('metaserver sample-server', () => {
  it('prints its URL, answers calls and stops on SIGTERM with exit code 0', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', runner, '--', '--port', '0', '--method', 'Tagger.run'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const out: string[] = [];
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const lines = createInterface({ input: child.stdout });
      const url = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${stderr}`)));
        lines.on('line', (line) => {
          out.push(line);
          const m = /listening on (http:\/\/\S+\/) \(method Tagger\.run\)/.exec(line);
          if (m) resolve(m[1]);
        });
      });
      const outcome = await callXmlRpc({
        url,
        body: encodeMethodCall('Tagger.run', ['BRCA1 binds']),
        deadlineMs: 10_000,
        maxResponseBytes: 100_000,
      });
      expect(outcome).toMatchObject({ ok: true, value: { interaction: [true, 0.5] } });
      const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code))); // after stdout is drained
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out.at(-1)).toBe('sample annotation server stopped');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL'); // never leave it running when an assertion failed
    }
  });

  it('refuses a bad port with a non-zero exit code', async () => {
    const stderr = process.stderr.write;
    process.stderr.write = () => true; // commander prints the error
    try {
      expect(await runSampleServerCommand(['--port', 'eighty'])).not.toBe(0);
    } finally {
      process.stderr.write = stderr;
    }
  });
});
