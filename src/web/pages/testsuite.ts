// The test-suite page: a run's progress per server and, for the chosen server, the
// feature-class report (the same sections as GET /testsuites/:name/report, but inside the
// site's pages and loaded with the page's token, which a plain link cannot send).
import { html, raw, type SafeHtml } from '../html.ts';
import { fragment, NEEDS_TOKEN } from '../layout.ts';

export function testsuitePageBody(name: string, server: string | undefined): SafeHtml {
  const query = server ? `?server=${encodeURIComponent(server)}` : '';
  return html`<h1>Test suite ${name}</h1>
<p>The report gives precision, recall and F per feature class, worst first: what kinds of names a server misses. It uses the organiser token if this browser has one, else the team token. <a href="/organiser">Organiser page</a> · <a href="/team">Team page</a></p>
${fragment(`/fragments/testsuites/${encodeURIComponent(name)}${query}`, { label: 'Test-suite report', pollMs: 5000, needsToken: NEEDS_TOKEN.owner })}`;
}

export interface SuiteProgressJson {
  name: string;
  items: number;
  done: boolean;
  servers: Array<{
    sourceServerId: number;
    serverId: number;
    name: string;
    team: string;
    state: string;
    progress: { queued: number; active: number; done: number; failed: number };
    finished: boolean;
  }>;
}

export function testsuiteFragment(run: SuiteProgressJson, chosen: number, report: string): SafeHtml {
  return html`<div class="table-scroll"><table><caption>Servers in this run (${run.items} items each)</caption>
<thead><tr><th scope="col">Server</th><th scope="col">Team</th><th scope="col">Items finished</th><th scope="col">Report</th></tr></thead>
<tbody>${run.servers.map((s) => html`<tr><th scope="row">${s.name}</th><td>${s.team}</td><td>${s.progress.done + s.progress.failed} of ${run.items}${s.finished ? ' (finished)' : ''}</td><td>${s.serverId === chosen ? html`<strong>shown below</strong>` : html`<a href="/testsuites/${run.name}?server=${s.serverId}">show</a>`}</td></tr>`)}</tbody></table></div>
<section aria-labelledby="suite-report-heading"${run.done ? html` data-final` : ''}><h2 id="suite-report-heading">Report for ${run.servers.find((s) => s.serverId === chosen)?.name ?? `server ${chosen}`}</h2>
${raw(report)}
<div class="buttons"><button type="button" id="suite-download" data-download="/api/testsuites/${run.name}/report?server=${chosen}&amp;format=tsv" data-filename="${run.name}-${chosen}.tsv">Download the report as TSV</button></div>
</section>`;
}
