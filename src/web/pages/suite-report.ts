// A test-suite report as HTML: the class table worst first and the false positives on fp
// sentences. Shown by the standalone page (GET /testsuites/:name/report) and inside the
// site's test-suite page. Every interpolated string goes through `esc`; nothing from a
// suite or an answer is trusted.
import { escapeHtml } from '../html.ts';
import type { ClassScore, SuiteReport } from '../../testsuites/report.ts';

/** What the report shows of one server's run (the JSON report has all of it). */
export interface ShownReport {
  serverId: number;
  sourceServerId: number;
  team: string;
  items: number;
  progress: { queued: number; active: number; done: number; failed: number };
  report: SuiteReport;
}

/** HTML escaping for text and attribute values (the web pages' escaper). */
const esc = (value: string | number): string => escapeHtml(String(value));

const num = (x: number) => x.toFixed(3);
const CRITERIA = ['strict', 'left', 'right'] as const;

/**
 * A class with no responses has no precision, and one with no gold no recall (nor F): shown
 * as "—", not as a 0.000 that reads like a measured failure. With gold but no responses F
 * stays 0.000: the server found none of it.
 */
function classRow(c: Pick<ClassScore, 'gold' | 'responses' | 'strict' | 'left' | 'right'>, label: string): string {
  const p = (x: number) => (c.responses === 0 ? '—' : num(x));
  const r = (x: number) => (c.gold === 0 ? '—' : num(x));
  const cells = [c.gold, c.responses, ...CRITERIA.flatMap((k) => [p(c[k].p), r(c[k].r), r(c[k].f)])];
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
export function reportSections(r: ShownReport, headingLevel = 2): string {
  const { report, progress } = r;
  const head = ['Gold', 'Responses', ...CRITERIA.flatMap((k) => [`${k} P`, `${k} R`, `${k} F`])];
  const pending = report.missingAnswers;
  const fps = report.falsePositives.flatMap((f) => f.mentions.map((m) => ({ f, m })));
  return `<p>Server ${esc(r.serverId)} (copy of server ${esc(r.sourceServerId)}), team ${esc(r.team)}.
${esc(r.items)} items: ${esc(progress.done)} done, ${esc(progress.failed)} failed, ${esc(progress.queued + progress.active)} in progress.</p>
${pending.length ? `<p role="status">${esc(pending.length)} item(s) have no answer yet and count as answering nothing (first: ${esc(pending[0])}).</p>` : ''}
<div class="table-scroll"><table class="suite-report">
<caption>Feature classes, worst first (strict F, then recall); classes at F = 0 are highlighted</caption>
<thead><tr><th scope="col">Class</th>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>
<tbody>
${classRow(report.overall, '(all)')}
${report.classes.map((c) => classRow(c, c.key)).join('\n')}
</tbody>
</table></div>
<h${headingLevel}>False positives on fp sentences</h${headingLevel}>
${
  fps.length === 0
    ? '<p>None.</p>'
    : `<div class="table-scroll"><table class="suite-report">
<caption>${esc(report.fpSentences.withFalsePositives)} of ${esc(report.fpSentences.items)} fp sentences drew ${esc(report.fpSentences.mentions)} mention(s)</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Mention</th><th scope="col">Sentence</th></tr></thead>
<tbody>
${fps.map(({ f, m }) => `<tr><th scope="row">${esc(f.id)}</th><td>${esc(m.text)}</td><td class="sentence">${marked(f.text, [m])}</td></tr>`).join('\n')}
</tbody>
</table></div>`
}`;
}
