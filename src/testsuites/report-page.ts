// GET /testsuites/:name/report?server=…: the test-suite report as one small HTML page,
// rendered on the server without a template engine — the class table worst first and
// the false positives on fp sentences. Every interpolated string goes through `esc`;
// nothing from a suite or an answer is trusted. Same access rule as the JSON report.

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.ts';
import { escapeHtml } from '../web/html.ts';
import type { ClassScore } from './report.ts';
import { NameParams, ReportQuerystring, runReport, type RunReport } from './run-report.ts';

/** HTML escaping for text and attribute values (the web pages' escaper). */
const esc = (value: string | number): string => escapeHtml(String(value));

const num = (x: number) => x.toFixed(3);
const CRITERIA = ['strict', 'left', 'right'] as const;

function classRow(c: Pick<ClassScore, 'gold' | 'responses' | 'strict' | 'left' | 'right'>, label: string): string {
  const cells = [c.gold, c.responses, ...CRITERIA.flatMap((k) => [num(c[k].p), num(c[k].r), num(c[k].f)])];
  const zero = c.gold > 0 && c.strict.f === 0 ? ' class="zero"' : '';
  return `<tr${zero}><th scope="row">${esc(label)}</th>${cells.map((v) => `<td>${esc(v)}</td>`).join('')}</tr>`;
}

/** The sentence with each false positive marked (offsets count code points). */
function marked(text: string, spans: readonly { start: number; end: number }[]): string {
  const chars = Array.from(text);
  let out = '';
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at) continue;
    out += esc(chars.slice(at, s.start).join('')) + `<mark>${esc(chars.slice(s.start, s.end).join(''))}</mark>`;
    at = s.end;
  }
  return out + esc(chars.slice(at).join(''));
}

/** The report itself (summary, class table, false positives): the standalone page and the web pages' test-suite page show it alike. */
export function reportSections(r: RunReport, headingLevel = 2): string {
  const { report, copy, run, progress } = r;
  const head = ['Gold', 'Responses', ...CRITERIA.flatMap((k) => [`${k} P`, `${k} R`, `${k} F`])];
  const pending = report.missingAnswers;
  const fps = report.falsePositives.flatMap((f) => f.mentions.map((m) => ({ f, m })));
  return `<p>Server ${esc(copy.serverId)} (copy of server ${esc(copy.sourceServerId)}), team ${esc(copy.server.team)}.
${esc(run.document.items.length)} items: ${esc(progress.done)} done, ${esc(progress.failed)} failed, ${esc(progress.queued + progress.active)} in progress.</p>
${pending.length ? `<p role="status">${esc(pending.length)} item(s) have no answer yet and count as answering nothing (first: ${esc(pending[0]!)}).</p>` : ''}
<div class="table-scroll"><table class="suite-report">
<caption>Feature classes, worst first (strict F, then recall); classes at F = 0 are highlighted</caption>
<thead><tr><th scope="col">Class</th>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${classRow(report.overall, '(all)')}
${report.classes.map((c) => classRow(c, c.key)).join('\n')}
</tbody>
</table></div>
<h${headingLevel}>False positives on fp sentences</h${headingLevel}>
${fps.length === 0 ? '<p>None.</p>' : `<div class="table-scroll"><table class="suite-report">
<caption>${esc(report.fpSentences.withFalsePositives)} of ${esc(report.fpSentences.items)} fp sentences drew ${esc(report.fpSentences.mentions)} mention(s)</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Mention</th><th scope="col">Sentence</th></tr></thead>
<tbody>
${fps.map(({ f, m }) => `<tr><th scope="row">${esc(f.id)}</th><td>${esc(m.text)}</td><td class="sentence">${marked(f.text, [m])}</td></tr>`).join('\n')}
</tbody>
</table></div>`}`;
}

export function renderReportPage(r: RunReport): string {
  const title = `Test suite ${r.run.name} — ${r.copy.server.name}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #111; }
table { border-collapse: collapse; margin: 1rem 0; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border: 1px solid #bbb; padding: 0.2rem 0.5rem; }
td { text-align: right; font-variant-numeric: tabular-nums; }
td.sentence { text-align: left; }
th[scope="row"] { text-align: left; font-weight: normal; font-family: ui-monospace, monospace; }
tr.zero th, tr.zero td { background: #fde2e2; }
mark { background: #ffe08a; }
</style>
</head>
<body>
<main>
<h1>${esc(title)}</h1>
${reportSections(r)}
</main>
</body>
</html>
`;
}

export function reportPageRoute(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/testsuites/:name/report',
    { schema: { hide: true, params: NameParams, querystring: ReportQuerystring } },
    async (request, reply) => {
      const result = await runReport(ctx, await ctx.auth.principal(request), request.params.name, request.query);
      return reply.header('content-type', 'text/html; charset=utf-8').send(renderReportPage(result));
    },
  );
}
