// `metaserver sample-server --protocol pubannotation --async`, run as a team runs it (a
// child process): the ready line names the protocol, the POST is answered 303 See Other,
// the result is delivered once at its Location and is gone (410) after; and `--async`
// without PubAnnotation is refused.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { runSampleServerCommand } from '../../src/cli/sample-server.ts';

const runner = `
  const { runSampleServerCommand } = await import(${JSON.stringify(new URL('../../src/cli/sample-server.ts', import.meta.url).href)});
  process.exitCode = await runSampleServerCommand(process.argv.slice(1));
`;

describe('metaserver sample-server --protocol', () => {
  it('pubannotation --async: 303 to the result, delivered once, then 410 Gone', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', runner, '--', '--port', '0', '--protocol', 'pubannotation', '--async'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const lines = createInterface({ input: child.stdout });
      const url = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${stderr}`)));
        lines.on('line', (line) => {
          const m = /listening on (http:\/\/\S+\/) \(protocol pubannotation, asynchronous\)/.exec(line);
          if (m) resolve(m[1]);
        });
      });
      const posted = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ text: 'BRCA1 binds 𝛼 IL2R.', sourcedb: 'PubMed' }),
        redirect: 'manual',
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get('retry-after')).toBe('0');
      const location = new URL(posted.headers.get('location')!, url).href;
      const result = await fetch(location);
      expect(result.status).toBe(200);
      expect(await result.json()).toEqual({
        sourcedb: 'PubMed',
        text: 'BRCA1 binds 𝛼 IL2R.',
        denotations: [
          { id: 'T1', span: { begin: 0, end: 5 }, obj: 'protein' },
          { id: 'T2', span: { begin: 14, end: 18 }, obj: 'protein' },
        ],
        attributes: [
          { id: 'A1', subj: 'T1', pred: 'confidence', obj: 0.9 },
          { id: 'A2', subj: 'T2', pred: 'confidence', obj: 0.9 },
          // BRCA1's id, as PubAnnotation serves PubTator's
          { id: 'A3', subj: 'T1', pred: 'pubann:denotes', obj: 'NCBIGene:672' },
        ],
      });
      expect((await fetch(location)).status).toBe(410);
      expect((await fetch(new URL('/results/99', url))).status).toBe(404);
      const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses --async without --protocol pubannotation', async () => {
    const stderr = process.stderr.write;
    process.stderr.write = () => true; // commander prints the error
    try {
      expect(await runSampleServerCommand(['--port', '0', '--protocol', 'json', '--async'])).not.toBe(0);
      expect(await runSampleServerCommand(['--port', '0', '--protocol', 'soap'])).not.toBe(0);
    } finally {
      process.stderr.write = stderr;
    }
  });
});
