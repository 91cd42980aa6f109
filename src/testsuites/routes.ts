// Running a test suite against chosen MENTION servers through the normal dispatch path:
//   POST /api/testsuites                 create a run (generate from the built-in catalogue, or upload a suite)
//   GET  /api/testsuites/:name           progress per server copy
//   GET  /api/testsuites/:name/report    the feature-class report (JSON or TSV)
//   GET  /testsuites/:name/report        the same as a small HTML page (report-page.ts)
// Each path with its schema (route-schemas.ts), who may call it, and its handler
// (route-handlers.ts). The plugin is registered without a prefix because it serves both
// /api and page paths.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import * as S from './route-schemas.ts';
import { createRunHandler, reportPageHandler, runProgressHandler, runReportHandler, type TestsuiteRouteDeps } from './route-handlers.ts';

export function testsuiteRoutes(deps: TestsuiteRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/api/testsuites', { schema: S.CreateRun, config: { access: 'owner' } }, createRunHandler(deps));
    app.get('/api/testsuites/:name', { schema: S.RunProgress, config: { access: 'owner' } }, runProgressHandler(deps));
    app.get('/api/testsuites/:name/report', { schema: S.RunReport, config: { access: 'owner' } }, runReportHandler(deps));
    app.get('/testsuites/:name/report', { schema: S.RunReportPage, config: { access: 'owner' } }, reportPageHandler(deps));
  };
}
