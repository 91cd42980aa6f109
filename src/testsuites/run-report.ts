// What the report routes (JSON/TSV and the HTML page) share: finding a run, deciding who
// may see which of its servers, and building the feature-class report from the answers
// stored for one server copy. Items without an answer yet are scored as answering
// nothing and listed as pending, so a report read mid-run says how provisional it is.

import type { Principal } from '../auth/principal.ts';
import { canSee } from '../auth/access.ts';
import { ApiError, badRequest, notFound } from '../http/api-error.ts';
import type { AnnotationServer, ServerRepository } from '../servers/repository.ts';
import type { ServerProgress, ServerStatusRepository } from '../servers/status-repository.ts';
import { SPEC_BY_KEY } from './feature-specs.ts';
import { buildReport, type SuiteReport } from './report.ts';
import type { RunCopy, StoredRun, SuiteRunRepository } from './run-repository.ts';
import { itemsOfDocument } from './suite-document.ts';
import type { GeneratedItem } from './types.ts';

/** What reading a run and its report needs, handed over by the routes. */
export interface RunReportDeps {
  suiteRuns: Pick<SuiteRunRepository, 'byName' | 'answers'>;
  servers: Pick<ServerRepository, 'byId'>;
  serverStatus: Pick<ServerStatusRepository, 'progress'>;
}

export interface VisibleCopy extends RunCopy {
  server: AnnotationServer;
}

export async function loadRun(deps: Pick<RunReportDeps, 'suiteRuns'>, name: string): Promise<StoredRun> {
  const run = await deps.suiteRuns.byName(name);
  if (!run) throw notFound(`test suite "${name}"`);
  return run;
}

/** The organiser sees every copy; a team only its own. A team with none gets the 404 of a missing suite. */
export async function visibleCopies(deps: Pick<RunReportDeps, 'servers'>, principal: Principal, run: StoredRun): Promise<VisibleCopy[]> {
  const all: VisibleCopy[] = [];
  for (const c of run.copies) {
    const server = await deps.servers.byId(c.serverId);
    if (server) all.push({ ...c, server });
  }
  const shown = all.filter((c) => canSee(principal, c.server.teamId));
  if (shown.length === 0) throw notFound(`test suite "${run.name}"`);
  return shown;
}

/** `by=a,b` (repeatable, or several combinations separated by ";"). */
function parseBy(raw: string | string[] | undefined): string[][] {
  const combos = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((r) => r.split(';'))
    .map((c) =>
      c
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .filter((c) => c.length > 0);
  for (const key of combos.flat()) {
    if (!SPEC_BY_KEY.has(key)) throw badRequest(`by: unknown feature "${key}"; known: ${[...SPEC_BY_KEY.keys()].join(', ')}`);
  }
  return combos;
}

export interface RunReport {
  run: StoredRun;
  copy: VisibleCopy;
  items: GeneratedItem[];
  progress: ServerProgress;
  report: SuiteReport;
}

export interface ReportQuery {
  server?: string;
  by?: string | string[];
  singles?: string;
}

export async function runReport(deps: RunReportDeps, principal: Principal, name: string, query: ReportQuery): Promise<RunReport> {
  const run = await loadRun(deps, name);
  const copies = await visibleCopies(deps, principal, run);
  let copy: VisibleCopy | undefined;
  if (query.server === undefined) {
    if (copies.length > 1)
      throw badRequest(
        `test suite "${name}" ran on ${copies.length} servers; name one with ?server= (${copies.map((c) => c.serverId).join(', ')})`,
      );
    copy = copies[0];
  } else {
    const id = Number(query.server);
    copy = copies.find((c) => c.serverId === id) ?? copies.find((c) => c.sourceServerId === id);
    if (!copy) throw notFound(`server ${query.server} in test suite "${name}"`);
  }
  const by = parseBy(query.by);
  const singles = query.singles
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  for (const key of singles ?? []) if (!SPEC_BY_KEY.has(key)) throw badRequest(`singles: unknown feature "${key}"`);
  let items: GeneratedItem[];
  try {
    items = itemsOfDocument(run.document);
  } catch (error) {
    throw new ApiError('internal', `the stored suite "${name}" cannot be read: ${(error as Error).message}`);
  }
  const [answers, progress] = await Promise.all([
    deps.suiteRuns.answers(run.challengeId, copy.serverId),
    deps.serverStatus.progress(copy.serverId),
  ]);
  const report = buildReport(items, answers, { by, ...(singles?.length ? { singles } : {}) });
  return { run, copy: copy, items, progress, report };
}
