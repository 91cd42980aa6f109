// `metaserver export --challenge SLUG --runs [--out FILE]`: every run of the challenge, its
// gold, scores.tsv and manifest.json as one .tar.gz (GET /api/challenges/:slug/runs/export),
// written to FILE (default `<slug>.runs.tar.gz`) as it arrives. Organiser, or a team once
// the leaderboards are published. The archive is written beside FILE first and renamed
// when whole, so a transfer cut short leaves no archive that looks complete.
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { ApiCallError, callApiStream, type ApiTarget } from './api-client.ts';

/** Downloads the archive into `out`; 0 written, 1 refused or cut short (said on stderr). */
export async function downloadRuns(target: ApiTarget, challenge: string, out: string, stderr: (s: string) => void): Promise<number> {
  const partial = `${out}.part`;
  try {
    const answer = await callApiStream(target, `/api/challenges/${encodeURIComponent(challenge)}/runs/export`);
    mkdirSync(dirname(out), { recursive: true });
    const body = Readable.from(answer.body);
    // The archive is gzip itself; were it compressed again for the transfer, that layer comes off.
    await (answer.gzipped ? pipeline(body, createGunzip(), createWriteStream(partial)) : pipeline(body, createWriteStream(partial)));
    renameSync(partial, out);
  } catch (err) {
    rmSync(partial, { force: true });
    if (err instanceof ApiCallError) {
      stderr(`metaserver export: ${err.message}\n`);
      return 1;
    }
    stderr(`metaserver export: the transfer of the runs was cut short (${(err as Error).message}); nothing was written\n`);
    return 1;
  }
  stderr(`wrote ${out}\n`);
  return 0;
}
