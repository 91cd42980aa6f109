// MENTION: a mention's `ids` as a server sends them, read into the stored form
// (`NS:accession`, src/tasks/concept-ids.ts).
//
// Choices:
// - A namespace is required on the wire. Corpora write bare accessions and the type says
//   which namespace they are (BC5CDR's `D003693` of a Chemical); a server that does so is
//   refused, with the id it probably meant named: guessing would store a MeSH id for a
//   server that meant a ChEBI one.
// - A composite mention's ids are separate items; one string joining them
//   (`MESH:D001943|D010051`, as the corpora's id columns do) is refused with the items it
//   should have been.
// - Namespaces outside the challenge's for the mention's type are refused, naming those
//   accepted; an id twice in one mention is dropped with a warning; `ids: []` (sent, could
//   not normalise) is kept as such.
// - With release lists loaded (`conceptIdLists`), an id of a listed namespace that the
//   list lacks is a warning and kept: the release may be older than the server's.

import { describe, type Report } from '../../tasks/checks.ts';
import {
  acceptedNamespaces,
  conceptIdProblem,
  formatConceptId,
  readConceptId,
  type ConceptId,
  type NamespaceRules,
} from '../../tasks/concept-ids.ts';
import type { ConceptIdLists } from './id-lists.ts';

/** Where the check finds what it needs besides the ids: the mention's type and the challenge's rules. */
export interface IdsContext {
  type?: string;
  rules?: NamespaceRules;
  lists: ConceptIdLists | null;
}

const FORM = 'a string "NS:accession" such as "MESH:D003693"';

/** The ids of one mention (`path` is `mentions[3]`), stored form; undefined when one is refused (errors reported). */
export function checkMentionIds(value: unknown[], path: string, at: IdsContext, report: Report): string[] | undefined {
  const errorsBefore = report.errors.length;
  const ids: string[] = [];
  const firstAt = new Map<string, number>();
  value.forEach((written, i) => {
    const itemPath = `${path}.ids[${i}]`;
    const id = readOne(written, itemPath, at, report);
    if (!id) return;
    const stored = formatConceptId(id);
    const first = firstAt.get(stored);
    if (first !== undefined) {
      report.warn(itemPath, `${stored} is already given as ids[${first}] of this mention; dropped (give each id of a mention once)`);
      return;
    }
    firstAt.set(stored, i);
    ids.push(stored);
    releaseCheck(id, stored, itemPath, at.lists, report);
  });
  return report.errors.length > errorsBefore ? undefined : ids;
}

/** One id as written, read and checked; undefined with an error when refused. */
function readOne(written: unknown, path: string, at: IdsContext, report: Report): ConceptId | undefined {
  if (typeof written !== 'string') {
    report.error(path, `expected ${FORM}, got ${describe(written)}`);
    return undefined;
  }
  const id = readConceptId(written);
  if (!id) {
    report.error(path, noNamespace(written, at));
    return undefined;
  }
  const parts = composite(id);
  if (parts) {
    const items = parts.map((p) => JSON.stringify(p)).join(', ');
    report.error(path, `${JSON.stringify(written)} joins ${parts.length} ids in one string; send each as its own item of ids: [${items}]`);
    return undefined;
  }
  const problem = conceptIdProblem(id);
  if (problem) {
    report.error(path, `${JSON.stringify(written)}: ${problem}`);
    return undefined;
  }
  const accepted = acceptedNamespaces(at.rules, at.type);
  if (accepted && !accepted.includes(id.namespace)) {
    const of = at.type === undefined ? 'untyped mentions' : `${JSON.stringify(at.type)} mentions`;
    report.error(
      path,
      `namespace ${id.namespace} (${JSON.stringify(written)}) is not accepted for ${of} in this challenge (accepted: ${accepted.join(', ')}); send ids of those namespaces, or leave this one out`,
    );
    return undefined;
  }
  return id;
}

/** The refusal of a bare accession, naming the id it probably stands for. */
function noNamespace(written: string, at: IdsContext): string {
  const guess = written.trim() === '' ? undefined : readConceptId(written, at.type, at.rules);
  const meant = guess ? ` (for this mention probably "${formatConceptId(guess)}")` : '';
  return `${JSON.stringify(written)} has no namespace: send ${FORM}${meant}; ids from servers are not given a namespace by the meta-server`;
}

/** The separate ids of one written as several joined (`MESH:D001943|D010051`), or undefined. */
function composite(id: ConceptId): string[] | undefined {
  // A tmVar form holds `|` itself: HGVS ids are joined by `;` or `,` only.
  const parts = id.accession
    .split(id.namespace === 'HGVS' ? /[;,]/ : /[|;,]/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length < 2) return undefined;
  return parts.map((p) => (p.includes(':') ? p : `${id.namespace}:${p}`));
}

/** Warns when a loaded release list of the id's namespace lacks it. */
function releaseCheck(id: ConceptId, stored: string, path: string, lists: ConceptIdLists | null, report: Report): void {
  const found = lists?.lookup(id);
  if (!found || found.known) return;
  report.warn(path, `${stored} is not in the ${found.title} release loaded (${found.file}); kept — check the accession`);
}
