// INT — interactor normalisation (BC II.5): per article, a ranked list of the UniProt
// accessions of the proteins it is about. Answer key `normalizations`.

import { ACCESSION_LAYOUT } from '../../scoring/index.ts';
import { RANKED_LEADERBOARD, rankedConsensus, rankedScoring, rankedTsvFile, withConfidence, type RankedSpec } from '../common/ranked.ts';
import { uniprotEntry } from '../common/entry-links.ts';
import { corpusIds, idsOf } from '../common/corpus-ids.ts';
import { double } from '../common/wire.ts';
import { defineFamily } from '../family.ts';
import type { NormalizationItem } from './types.ts';
import { validateInt } from './validate.ts';

const spec: RankedSpec<NormalizationItem> = {
  task: 'INT',
  layout: ACCESSION_LAYOUT,
  keyOf: (item) => item.accession,
  itemOf: (accession, rank, confidence) => withConfidence({ accession, rank }, confidence),
};

export const int = defineFamily({
  name: 'INT',
  answerKey: 'normalizations',
  title: 'Interactor normalisation: ranked UniProt accessions per article',
  validate: validateInt,
  counting: { count: 'items' },
  wire: {
    toWire: (items: NormalizationItem[]) =>
      items.map((i) => ({
        dbid: i.accession,
        dbname: 'UniProt',
        rank: i.rank,
        confidence: double(i.confidence),
        taxid: i.taxid,
        evidence: i.evidence,
      })),
    help: 'normalizations [{dbid, dbname, rank, confidence?, taxid?, evidence?}]',
  },
  scoring: {
    ...rankedScoring(spec, {
      options: ['all', 'cutoff', 'beta', 'ho', 'of'],
      flags: ['columns', 'all', 'cutoff', 'ho', 'of', 'beta'],
      goldForm: 'docid<TAB>accession',
    }),
    // Corpus gold: UniProt accessions only (PubTator's Gene ids are NCBI Gene ids, not INT's).
    corpus: corpusIds({
      takes: 'the accessions of every "UniProt" infon and of identifiers written "UniProt:<accession>"',
      candidates: (a) => [...idsOf(a.infons.UniProt), ...idsOf(a.infons.identifier).filter((id) => /^uniprot(kb)?:/i.test(id))],
      normalise: (raw) =>
        /^(?:uniprot(?:kb)?:)?([A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2}|[OPQ][0-9][A-Z0-9]{3}[0-9])(?:-\d+)?$/i
          .exec(raw)?.[1]
          ?.toUpperCase(),
      what: 'UniProt accessions',
    }),
  },
  consensus: rankedConsensus(spec),
  exports: {},
  tsv: rankedTsvFile(spec),
  web: {
    answer: {
      kind: 'list',
      heading: 'INT: proteins',
      items: (items) => items.map((i) => ({ label: i.accession, href: uniprotEntry(i.accession), confidence: i.confidence })),
    },
    consensus: (vote) => ({
      heading: 'INT',
      items: vote.items.map((i) => ({ label: i.accession, href: uniprotEntry(i.accession), share: i.share, servers: i.servers.length })),
    }),
    leaderboard: RANKED_LEADERBOARD,
    preselected: ['server', 'challenge'],
  },
});
