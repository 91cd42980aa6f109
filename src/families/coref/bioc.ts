// COREF in BioC: expressions are annotations (infons `type: Exp`, `id`, and the minimal
// boundary as `min-offset`/`min-length`); links are document relations (`type: Coref`,
// `id`, `proteins`) with nodes `Anaphora` and `Antecedent`.

import type { BiocTaskCodec, Infons } from '../../formats/bioc-model.ts';
import type { CorefExpression, CorefLink, CorefResult } from './types.ts';

export const corefBioc: BiocTaskCodec<CorefResult> = {
  task: 'COREF',
  write(coref, out) {
    const refOf = new Map<string, string>();
    for (const e of coref.expressions) {
      const infons: Infons = { type: 'Exp', id: e.id };
      if (e.min) Object.assign(infons, { 'min-offset': String(e.min.start), 'min-length': String(e.min.end - e.min.start) });
      refOf.set(e.id, out.annotate(e.start, e.end, e.text, infons));
    }
    for (const link of coref.links) {
      const infons: Infons = { type: 'Coref', id: link.id };
      if (link.proteins) infons.proteins = link.proteins.join(',');
      // A link may name a given protein, which is no annotation here: the id then stands as written.
      out.relate(infons, [
        { refid: refOf.get(link.anaphor) ?? link.anaphor, role: 'Anaphora' },
        { refid: refOf.get(link.antecedent) ?? link.antecedent, role: 'Antecedent' },
      ]);
    }
  },
  read(from) {
    const idOf = new Map<string, string>();
    const expressions = from.annotations.map((a) => {
      const e: CorefExpression = { id: a.infons.id ?? a.id, ...from.span(a), text: a.text };
      idOf.set(a.id, e.id);
      if (a.infons['min-offset'] !== undefined) {
        const start = Number(a.infons['min-offset']);
        const end = start + Number(a.infons['min-length']);
        e.min = { start, end, text: from.text.slice(start, end) };
      }
      return e;
    });
    const links = from.relations.map((r) => {
      const node = (role: string) => r.nodes.find((n) => n.role === role)?.refid ?? '';
      const link: CorefLink = {
        id: r.infons.id ?? r.id,
        anaphor: idOf.get(node('Anaphora')) ?? node('Anaphora'),
        antecedent: idOf.get(node('Antecedent')) ?? node('Antecedent'),
      };
      if (r.infons.proteins !== undefined) link.proteins = r.infons.proteins === '' ? [] : r.infons.proteins.split(',');
      return link;
    });
    return { expressions, links };
  },
};
