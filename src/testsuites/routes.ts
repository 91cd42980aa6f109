// Running a test suite against chosen MENTION servers through the normal dispatch path:
//   POST /api/testsuites                 create a run (generate from the built-in catalogue, or upload a suite)
//   GET  /api/testsuites/:name           progress per server copy
//   GET  /api/testsuites/:name/report    the feature-class report (JSON or TSV)
//   GET  /testsuites/:name/report        the same as a small HTML page (report-page.ts)
// The plugin is registered without a prefix because it serves both /api and page paths.

import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import type { Principal } from '../auth/principal.ts';
import { canSee, principalOf } from '../auth/access.ts';
import { ApiError, badRequest, conflict } from '../http/api-error.ts';
import { Described, ListOf, Open, responses, RowIdInteger } from '../http/schemas.ts';
import type { AnnotationServer } from '../servers/repository.ts';
import { loadBuiltInCatalogue } from './catalogue-io.ts';
import { generateSuite, selectEntities, selectSentences } from './generate.ts';
import { QuerySyntaxError } from './query.ts';
import { formatReportTsv } from './report.ts';
import { reportPageRoute } from './report-page.ts';
import { loadRun, NameParams, ReportQuerystring, runReport, SuiteName, visibleCopies } from './run-report.ts';
import { RunNameTakenError } from './run-repository.ts';
import { documentOfItems, itemsOfDocument, MAX_SUITE_ITEMS, SuiteDocumentError } from './suite-document.ts';
import type { GeneratedItem } from './types.ts';
import { mention } from '../families/mention/index.ts';
import { absoluteUrlOf } from '../http/public-url.ts';

const CreateBody = Type.Object(
  {
    name: SuiteName,
    servers: Type.Array(RowIdInteger, { minItems: 1, maxItems: 50, uniqueItems: true, description: 'registered servers offering MENTION' }),
    entityQuery: Type.Optional(Type.String({ maxLength: 2000 })),
    sentenceQuery: Type.Optional(Type.String({ maxLength: 2000 })),
    sample: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SUITE_ITEMS })),
    seed: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Integer()])),
    suite: Type.Optional(Type.Unknown({ description: 'an uploaded suite: the suite.json manifest plus "gold" (the lines of gold.jsonl)' })),
  },
  { additionalProperties: false },
);

type Body = Static<typeof CreateBody>;

const CreatedRun = Open({
  name: Type.String(),
  challenge: Type.String({ description: 'the challenge the run is dispatched under (suite-<name>)' }),
  items: Type.Integer(),
  servers: ListOf({
    sourceServerId: Type.Integer(),
    serverId: Type.Integer({ description: 'the copy of the server that runs the suite' }),
  }),
});
const RunProgress = Open({
  name: Type.String(),
  challenge: Type.String(),
  items: Type.Integer(),
  made: Described('how the suite was made (queries, sample, seed, or uploaded)'),
  createdAt: Described('ISO 8601'),
  done: Type.Boolean(),
  servers: ListOf({
    sourceServerId: Type.Integer(),
    serverId: Type.Integer(),
    name: Type.String(),
    team: Type.String(),
    state: Type.String(),
    progress: Open({ queued: Type.Integer(), active: Type.Integer(), done: Type.Integer(), failed: Type.Integer() }),
    finished: Type.Boolean(),
  }),
});
const ReportAnswer = Open(
  {
    suite: Type.String(),
    server: Open({ serverId: Type.Integer(), sourceServerId: Type.Integer(), name: Type.String(), team: Type.String() }),
    progress: Described("the server copy's progress"),
    pending: Described('items without an answer yet (scored as answering nothing)'),
  },
  "P/R/F per feature class; the other fields are the report's (testsuites/report.ts)",
);

/** The chosen servers, if the caller may run a suite on them: the organiser any, a team its own. */
async function chosenServers(ctx: AppContext, principal: Principal, ids: number[]): Promise<AnnotationServer[]> {
  const found: AnnotationServer[] = [];
  for (const id of ids) {
    const server = await ctx.repos.servers.byId(id);
    if (!server) throw badRequest(`servers: there is no annotation server ${id}`);
    if (!canSee(principal, server.teamId))
      throw new ApiError('forbidden', `server ${id} is not your team's; a team runs suites on its own servers only`);
    if (!server.tasks.includes(mention.name))
      throw badRequest(`servers: server ${id} does not offer ${mention.name} (its tasks: ${server.tasks.join(', ')})`);
    found.push(server);
  }
  return found;
}

function queryError(field: string, error: QuerySyntaxError): ApiError {
  return badRequest(`${field}: ${error.reason} (at column ${error.position + 1})`, {
    field,
    position: error.position,
    reason: error.reason,
    query: error.query,
  });
}

async function suiteItems(body: Body): Promise<{ items: GeneratedItem[]; made: Record<string, unknown>; productSize: number }> {
  if (body.suite !== undefined) {
    if (body.entityQuery !== undefined || body.sentenceQuery !== undefined || body.sample !== undefined || body.seed !== undefined) {
      throw badRequest('give either an uploaded "suite" or generation options (entityQuery, sentenceQuery, sample, seed), not both');
    }
    try {
      const items = itemsOfDocument(body.suite);
      const doc = body.suite as { made?: unknown; productSize?: unknown };
      const made = typeof doc.made === 'object' && doc.made !== null ? (doc.made as Record<string, unknown>) : {};
      return {
        items,
        made: { ...made, uploaded: true },
        productSize: typeof doc.productSize === 'number' ? doc.productSize : items.length,
      };
    } catch (error) {
      if (error instanceof SuiteDocumentError) throw badRequest(`suite: ${error.message}`);
      throw error;
    }
  }
  if (body.seed !== undefined && body.sample === undefined) throw badRequest('seed only applies with sample');
  const catalogue = await loadBuiltInCatalogue();
  const select = <T>(field: string, run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (error instanceof QuerySyntaxError) throw queryError(field, error);
      throw error;
    }
  };
  const entities = select('entityQuery', () => selectEntities(catalogue.entities, body.entityQuery));
  const sentences = select('sentenceQuery', () => selectSentences(catalogue.sentences, body.sentenceQuery));
  const seed = body.sample === undefined ? null : String(body.seed ?? '0');
  const suite = generateSuite(entities, sentences, { sample: body.sample, seed: seed ?? 0 });
  if (suite.items.length === 0) throw badRequest('the queries select no item; loosen entityQuery or sentenceQuery');
  if (suite.items.length > MAX_SUITE_ITEMS)
    throw badRequest(`the suite would have ${suite.items.length} items; at most ${MAX_SUITE_ITEMS} run at once: add sample`);
  const made = {
    entities: 'built-in',
    sentences: 'built-in',
    entityQuery: body.entityQuery ?? null,
    sentenceQuery: body.sentenceQuery ?? null,
    sample: body.sample ?? null,
    seed,
    selectedEntities: entities.length,
    selectedSentences: sentences.length,
  };
  return { items: suite.items, made, productSize: suite.productSize };
}

export function testsuiteRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['testsuites'];

    app.post(
      '/api/testsuites',
      {
        schema: {
          tags,
          summary: 'Run a feature-based test suite on chosen MENTION servers',
          body: CreateBody,
          response: responses({ 201: CreatedRun }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const body = request.body;
        const sources = await chosenServers(ctx, principal, body.servers);
        const { items, made, productSize } = await suiteItems(body);
        const tooLong = items.find((i) => Buffer.byteLength(i.text, 'utf8') > ctx.config.maxArticleBytes);
        if (tooLong)
          throw badRequest(`item ${tooLong.id} is longer than the largest article accepted (${ctx.config.maxArticleBytes} bytes)`);
        // The servers are called under the deadline and retry settings they were registered under.
        const origin = (await ctx.repos.challenges.byId(sources[0].challengeId))!;
        let created;
        try {
          created = await ctx.repos.suiteRuns.create({
            name: body.name,
            items,
            document: documentOfItems(items, made, productSize),
            sources,
            settings: {
              timeoutSeconds: origin.timeoutSeconds,
              maxAttempts: origin.maxAttempts,
              retryDelaySeconds: origin.retryDelaySeconds,
            },
          });
        } catch (error) {
          if (error instanceof RunNameTakenError) throw conflict(error.message);
          throw error;
        }
        // Queue work after the commit; starting again (POST /api/servers/:id/start) is safe if this is cut short.
        for (const copy of created.copies) {
          await ctx.dispatch.serverRegistered(copy);
          await ctx.dispatch.start(copy, created.challenge);
        }
        request.log.info({ testsuite: body.name, items: items.length, servers: sources.map((s) => s.id) }, 'test suite started');
        reply.header('location', absoluteUrlOf(request, ctx.config, `/api/testsuites/${encodeURIComponent(body.name)}`));
        return reply.status(201).send({
          name: body.name,
          challenge: created.challenge.slug,
          items: items.length,
          servers: created.copies.map((c, i) => ({ sourceServerId: sources[i].id, serverId: c.id })),
        });
      },
    );

    app.get(
      '/api/testsuites/:name',
      {
        schema: {
          tags,
          summary: 'Progress of a test-suite run, per server',
          params: NameParams,
          response: responses({ 200: RunProgress }),
        },
        config: { access: 'owner' },
      },
      async (request) => {
        const run = await loadRun(ctx, request.params.name);
        const copies = await visibleCopies(ctx, principalOf(request), run);
        const items = run.document.items.length;
        const servers = await Promise.all(
          copies.map(async (c) => {
            const progress = await ctx.repos.serverStatus.progress(c.serverId);
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
      },
    );

    app.get(
      '/api/testsuites/:name/report',
      {
        schema: {
          tags,
          summary: 'P/R/F per feature class for one server (JSON or TSV)',
          params: NameParams,
          querystring: ReportQuerystring,
          response: responses({
            200: {
              description: 'the report, as JSON or (format=tsv) as a TSV table',
              content: { 'application/json': { schema: ReportAnswer }, 'text/tab-separated-values': { schema: Type.String() } },
            },
          }),
        },
        config: { access: 'owner' },
      },
      async (request, reply) => {
        const { copy, report, progress } = await runReport(ctx, principalOf(request), request.params.name, request.query);
        if (request.query.format === 'tsv') {
          return reply
            .header('content-type', 'text/tab-separated-values; charset=utf-8')
            .header('x-testsuite-pending', String(report.missingAnswers.length))
            .send(formatReportTsv(report));
        }
        const server = { serverId: copy.serverId, sourceServerId: copy.sourceServerId, name: copy.server.name, team: copy.server.team };
        return { suite: request.params.name, server, progress, pending: report.missingAnswers, ...report };
      },
    );

    reportPageRoute(base, ctx);
  };
}
