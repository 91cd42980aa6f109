// What the report routes (JSON/TSV and the HTML page) share: finding a run, deciding who
// may see which of its servers, and building the feature-class report from the answers
// stored for one server copy. Items without an answer yet are scored as answering
// nothing and listed as pending, so a report read mid-run says how provisional it is.

import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import type { Principal } from '../auth/principal.ts';
import { canSee } from '../auth/access.ts';
import { ApiError, badRequest, notFound } from '../http/api-error.ts';
import { ServerId } from '../http/schemas.ts';
import type { AnnotationServer } from '../servers/repository.ts';
import type { ServerProgress } from '../servers/status-repository.ts';
import { SPEC_BY_KEY } from './feature-specs.ts';
import { buildReport, type SuiteReport } from './report.ts';
import type { RunCopy, StoredRun } from './run-repository.ts';
import { itemsOfDocument } from './suite-document.ts';
import type { GeneratedItem } from './types.ts';

/** The run's challenge slug is `suite-<name>`, which must fit the challenge slug rule. */
export const SuiteName = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,56}$', description: 'lower-case letters, digits and hyphens' });
export const NameParams = Type.Object({ name: SuiteName });

export const ReportQuerystring = Type.Object({
  server: Type.Optional(ServerId),
  by: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Array(Type.String({ maxLength: 500 }), { maxItems: 20 })])),
  singles: Type.Optional(Type.String({ maxLength: 2000 })),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('tsv')])),
});

export interface VisibleCopy extends RunCopy {
  server: AnnotationServer;
}

export async function loadRun(ctx: AppContext, name: string): Promise<StoredRun> {
  const run = await ctx.repos.suiteRuns.byName(name);
  if (!run) throw notFound(`test suite "${name}"`);
  return run;
}

/** The organiser sees every copy; a team only its own. A team with none gets the 404 of a missing suite. */
export async function visibleCopies(ctx: AppContext, principal: Principal, run: StoredRun): Promise<VisibleCopy[]> {
  const all: VisibleCopy[] = [];
  for (const c of run.copies) {
    const server = await ctx.repos.servers.byId(c.serverId);
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

export async function runReport(ctx: AppContext, principal: Principal, name: string, query: ReportQuery): Promise<RunReport> {
  const run = await loadRun(ctx, name);
  const copies = await visibleCopies(ctx, principal, run);
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
  const repo = ctx.repos.suiteRuns;
  const [answers, progress] = await Promise.all([
    repo.answers(run.challengeId, copy.serverId),
    ctx.repos.serverStatus.progress(copy.serverId),
  ]);
  const report = buildReport(items, answers, { by, ...(singles?.length ? { singles } : {}) });
  return { run, copy: copy, items, progress, report };
}
