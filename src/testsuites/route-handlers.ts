// What each test-suite route does (routes.ts registers them, route-schemas.ts types them):
// a new run is written in one transaction (run-repository.ts) and its server copies queued
// through dispatch afterwards; progress and reports read the stored run (run-report.ts),
// showing a team its own servers' copies only.
import type { Config } from '../config.ts';
import type { Principal } from '../auth/principal.ts';
import { canSee, principalOf } from '../auth/access.ts';
import { ApiError, badRequest, conflict } from '../http/api-error.ts';
import { absoluteUrlOf } from '../http/public-url.ts';
import type { RouteHandler } from '../http/route-types.ts';
import type { ChallengeRepository } from '../challenges/repository.ts';
import type { DispatchService } from '../dispatch/service.ts';
import type { AnnotationServer } from '../servers/repository.ts';
import { mention } from '../families/mention/index.ts';
import { formatReportTsv } from './report.ts';
import { renderReportPage } from './report-page.ts';
import { runItems } from './run-items.ts';
import { loadRun, runReport, visibleCopies, type RunReportDeps } from './run-report.ts';
import { RunNameTakenError, type SuiteRunRepository } from './run-repository.ts';
import { documentOfItems } from './suite-document.ts';
import type * as S from './route-schemas.ts';

/** What the test-suite routes need, handed over by the composition root. */
export interface TestsuiteRouteDeps extends RunReportDeps {
  config: Pick<Config, 'maxArticleBytes' | 'publicUrl'>;
  challenges: Pick<ChallengeRepository, 'byId'>;
  suiteRuns: Pick<SuiteRunRepository, 'create' | 'byName' | 'answers'>;
  dispatch: Pick<DispatchService, 'serverRegistered' | 'start'>;
}

/** The chosen servers, if the caller may run a suite on them: the organiser any, a team its own. */
async function chosenServers(deps: TestsuiteRouteDeps, principal: Principal, ids: number[]): Promise<AnnotationServer[]> {
  const found: AnnotationServer[] = [];
  for (const id of ids) {
    const server = await deps.servers.byId(id);
    if (!server) throw badRequest(`servers: there is no annotation server ${id}`);
    if (!canSee(principal, server.teamId))
      throw new ApiError('forbidden', `server ${id} is not your team's; a team runs suites on its own servers only`);
    if (!server.tasks.includes(mention.name))
      throw badRequest(`servers: server ${id} does not offer ${mention.name} (its tasks: ${server.tasks.join(', ')})`);
    found.push(server);
  }
  return found;
}

export function createRunHandler(deps: TestsuiteRouteDeps): RouteHandler<typeof S.CreateRun> {
  return async (request, reply) => {
    const principal = principalOf(request);
    const body = request.body;
    const sources = await chosenServers(deps, principal, body.servers);
    const { items, made, productSize } = await runItems(body);
    const tooLong = items.find((i) => Buffer.byteLength(i.text, 'utf8') > deps.config.maxArticleBytes);
    if (tooLong) throw badRequest(`item ${tooLong.id} is longer than the largest article accepted (${deps.config.maxArticleBytes} bytes)`);
    // The servers are called under the deadline and retry settings they were registered under.
    const origin = (await deps.challenges.byId(sources[0].challengeId))!;
    let created;
    try {
      created = await deps.suiteRuns.create({
        name: body.name,
        items,
        document: documentOfItems(items, made, productSize),
        sources,
        settings: { timeoutSeconds: origin.timeoutSeconds, maxAttempts: origin.maxAttempts, retryDelaySeconds: origin.retryDelaySeconds },
      });
    } catch (error) {
      if (error instanceof RunNameTakenError) throw conflict(error.message);
      throw error;
    }
    // Queue work after the commit; starting again (POST /api/servers/:id/start) is safe if this is cut short.
    for (const copy of created.copies) {
      await deps.dispatch.serverRegistered(copy);
      await deps.dispatch.start(copy, created.challenge);
    }
    request.log.info({ testsuite: body.name, items: items.length, servers: sources.map((s) => s.id) }, 'test suite started');
    reply.header('location', absoluteUrlOf(request, deps.config, `/api/testsuites/${encodeURIComponent(body.name)}`));
    return reply.status(201).send({
      name: body.name,
      challenge: created.challenge.slug,
      items: items.length,
      servers: created.copies.map((c, i) => ({ sourceServerId: sources[i].id, serverId: c.id })),
    });
  };
}

export function runProgressHandler(deps: TestsuiteRouteDeps): RouteHandler<typeof S.RunProgress> {
  return async (request) => {
    const run = await loadRun(deps, request.params.name);
    const copies = await visibleCopies(deps, principalOf(request), run);
    const items = run.document.items.length;
    const servers = await Promise.all(
      copies.map(async (c) => {
        const progress = await deps.serverStatus.progress(c.serverId);
        const finished = progress.queued === 0 && progress.active === 0 && progress.done + progress.failed >= items;
        return {
          sourceServerId: c.sourceServerId,
          serverId: c.serverId,
          name: c.server.name,
          team: c.server.team,
          state: c.server.state,
          progress,
          finished,
        };
      }),
    );
    return {
      name: run.name,
      challenge: `suite-${run.name}`,
      items,
      made: run.document.made,
      createdAt: run.createdAt,
      done: servers.every((s) => s.finished),
      servers,
    };
  };
}

export function runReportHandler(deps: TestsuiteRouteDeps): RouteHandler<typeof S.RunReport> {
  return async (request, reply) => {
    const { copy, report, progress } = await runReport(deps, principalOf(request), request.params.name, request.query);
    if (request.query.format === 'tsv') {
      return reply
        .header('content-type', 'text/tab-separated-values; charset=utf-8')
        .header('x-testsuite-pending', String(report.missingAnswers.length))
        .send(formatReportTsv(report));
    }
    const server = { serverId: copy.serverId, sourceServerId: copy.sourceServerId, name: copy.server.name, team: copy.server.team };
    return { suite: request.params.name, server, progress, pending: report.missingAnswers, ...report };
  };
}

export function reportPageHandler(deps: TestsuiteRouteDeps): RouteHandler<typeof S.RunReportPage> {
  return async (request, reply) => {
    const result = await runReport(deps, principalOf(request), request.params.name, request.query);
    return reply.header('content-type', 'text/html; charset=utf-8').send(renderReportPage(result));
  };
}
