// The page of GET /testsuites/:name/report?server=… (route-handlers.ts answers it, under
// the JSON report's access rule): the test-suite report as one small HTML page, rendered on
// the server without a template engine — the class table worst first and the false
// positives on fp sentences. Every interpolated string goes through `esc`; nothing from a
// suite or an answer is trusted.

import { escapeHtml } from '../web/html.ts';
import { reportSections, type ShownReport } from '../web/pages/suite-report.ts';
import type { RunReport } from './run-report.ts';

const esc = (value: string | number): string => escapeHtml(String(value));

/** The report itself is rendered by the web pages' module, which the test-suite page uses too. */
const toShown = (r: RunReport): ShownReport => ({
  serverId: r.copy.serverId,
  sourceServerId: r.copy.sourceServerId,
  team: r.copy.server.team,
  items: r.run.document.items.length,
  progress: r.progress,
  report: r.report,
});

/** The whole page, doctype to the end. */
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
${reportSections(toShown(r))}
</main>
</body>
</html>
`;
}
