// TX — species (BCMS): per article, a ranked list of the NCBI Taxonomy ids of the species
// it is about. Answer key `taxons` = [{taxid, confidence?, rank?}]. Scored like INT
// (ranked document-level ids: macro and micro P/R/F, AUC iP/R, cutoffs); gold
// `docid<TAB>taxid`, runs `docid<TAB>taxid<TAB>rank<TAB>confidence`. Answers are checked
// against an NCBI Taxonomy release index when one is configured (`taxonomyIndex`, built
// by `metaserver taxonomy build`).

import type { RankedLayout } from '../../scoring/index.ts';
import { biocExports } from '../common/bioc.ts';
import { RANKED_LEADERBOARD, rankedConsensus, rankedScoring, rankedTsvFile, withConfidence, type RankedSpec } from '../common/ranked.ts';
import { taxonomyEntry } from '../common/entry-links.ts';
import { corpusIds, idsOf } from '../common/corpus-ids.ts';
import { double } from '../common/wire.ts';
import { defineFamily } from '../family.ts';
import { FAMILY_SETTINGS } from '../../tasks/names.ts';
import { MAX_TAXID } from './build.ts';
import { taxonBioc, taxonPubAnnotation, taxonPubTator } from './exports.ts';
import { loadTaxonomyIndex, type TaxonomyIndex } from './taxonomy.ts';
import type { TaxonItem } from './types.ts';
import { TX_KEY, validateTx } from './validate.ts';

const TASK = 'TX';

/** Gold and run files: `docid<TAB>taxid[<TAB>rank<TAB>confidence]`, the taxid a positive integer. */
const TAXID_LAYOUT: RankedLayout = {
  width: 2,
  what: 'document, taxid',
  describe: (key) => `taxid ${key}`,
  check: (item) =>
    /^[1-9][0-9]*$/.test(item) && Number(item) <= MAX_TAXID
      ? undefined
      : { reason: `"${item}" is not an NCBI Taxonomy id`, hint: 'write each taxon as its id, a positive integer (9606 for Homo sapiens)' },
};

const spec: RankedSpec<TaxonItem> = {
  task: TASK,
  layout: TAXID_LAYOUT,
  keyOf: (item) => String(item.taxid),
  itemOf: (key, rank, confidence) => withConfidence({ taxid: Number(key), rank }, confidence),
};

export const tx = defineFamily({
  name: TASK,
  answerKey: TX_KEY,
  title: 'Species: ranked NCBI Taxonomy ids per article',
  validate: validateTx,
  counting: { count: 'items' },
  wire: {
    toWire: (taxa: TaxonItem[]) => taxa.map((t) => ({ taxid: t.taxid, rank: t.rank, confidence: double(t.confidence) })),
    help: 'taxons [{taxid, rank, confidence?}]',
  },
  scoring: {
    ...rankedScoring(spec, {
      options: ['all', 'cutoff', 'beta'],
      flags: ['columns', 'all', 'cutoff', 'beta'],
      goldForm: 'docid<TAB>taxid',
    }),
    // Corpus gold: the taxa of species annotations (PubTator's Species, BioC's NCBI Taxonomy).
    corpus: corpusIds({
      takes:
        'the taxids of annotations typed Species, Organism or Taxon (identifier infon or PubTator id column) and of every "NCBI Taxonomy" infon',
      candidates: (a) => [
        ...(/^(species|organism|taxon)$/i.test(a.type ?? '') ? idsOf(a.infons.identifier) : []),
        ...idsOf(a.infons['NCBI Taxonomy']),
      ],
      normalise: (raw) => /^(?:NCBITaxon:|taxon:|NCBI:txid|txid|tax:)?([1-9]\d{0,9})$/i.exec(raw)?.[1],
      what: 'NCBI Taxonomy ids',
    }),
  },
  consensus: rankedConsensus(spec),
  exports: { ...biocExports(TASK, taxonBioc), pubannotation: taxonPubAnnotation, pubtator: taxonPubTator },
  bioc: taxonBioc,
  tsv: rankedTsvFile(spec),
  web: {
    answer: {
      kind: 'list',
      heading: 'TX: species',
      items: (taxa) => taxa.map((t) => ({ label: String(t.taxid), href: taxonomyEntry(t.taxid), confidence: t.confidence })),
    },
    consensus: (vote) => ({
      heading: TASK,
      items: vote.items.map((t) => ({ label: String(t.taxid), href: taxonomyEntry(t.taxid), share: t.share, servers: t.servers.length })),
    }),
    leaderboard: RANKED_LEADERBOARD,
  },
  settings: FAMILY_SETTINGS.TX,
  lookup: {
    setting: 'taxonomyIndex',
    load: (path: string): TaxonomyIndex => loadTaxonomyIndex(path),
    release: (index: TaxonomyIndex) => index.release.name,
    without: 'TX taxids are checked to be positive integers only',
  },
  commands: [
    {
      name: 'taxonomy',
      description: 'build or query an NCBI Taxonomy release index for TX (taxonomy build | lookup)',
      run: async (argv) => (await import('./command.ts')).runTaxonomyCommand(argv),
    },
  ],
});
