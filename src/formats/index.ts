// Article and annotation formats: JATS/NXML import, and export/import of answers as BC II.5
// TSV, BioC XML/JSON, brat standoff, PubAnnotation JSON, CoNLL BIO and BioNLP .a1/.a2.
// Every function is pure (strings in, strings or objects out); callers do the I/O.

export { FormatError, runOf, UNTYPED_MENTION, type ExportAnswer, type ExportArticle, type RunDocument } from './common.ts';
export { jatsToText, type JatsText } from './jats.ts';
export {
  readClassificationTsv,
  readRankedTsv,
  writeClassificationTsv,
  writeRankedTsv,
  type ClassificationLine,
  type RankedLine,
  type TsvExport,
  type TsvImportOptions,
} from './tsv.ts';
export {
  articlesToBioc,
  biocToArticles,
  BIOC_KEY,
  setOptional,
  type AnyBiocCodec,
  type BiocAnswerReader,
  type BiocAnswerWriter,
  type BiocTaskCodec,
  type BiocAnnotation,
  type BiocCollection,
  type BiocDocument,
  type BiocOptions,
  type BiocPassage,
  type BiocRelation,
} from './bioc-model.ts';
export { exportBiocXml, importBiocXml, readBiocXml, writeBiocXml } from './bioc-xml.ts';
export { exportBiocJson, importBiocJson, readBiocJson, writeBiocJson } from './bioc-json.ts';
export { BratText, exportBrat, exportBratAnswer, importBrat, type BratDocument } from './brat.ts';
export { exportPubAnnotation, importPubAnnotation, type PubAnnotationDocument } from './pubannotation.ts';
export { BIO_DOCUMENT_START, exportBio, exportBioDocuments, flatMentions, importBio, tokenize, type BioExport, type Token } from './bio.ts';
export { exportA2, importA1, importA2 } from './a1a2.ts';
export { tarGz, type ArchiveFile } from './tar-gz.ts';
export {
  biocCorpus,
  biocCorpusEach,
  corpusHeader,
  describeFragments,
  isDiscontinuous,
  UNNAMED_ID,
  type BadAnnotations,
  type CorpusAnnotation,
  type CorpusDocument,
  type CorpusHeader,
  type CorpusLocation,
  type CorpusRelation,
  type CorpusSection,
} from './bioc-corpus.ts';
export { readPubTator, readPubTatorEach, writePubTator, type PubTatorDocument } from './pubtator.ts';
export {
  corpusFormatOf,
  readCorpusFile,
  readCorpusFileEach,
  type CorpusAnnotationLeftOut,
  type CorpusFailure,
  type CorpusFileRead,
  type CorpusFormat,
} from './corpus-file.ts';
export { readPmcPackage, type PackagedArticle } from './pmc-package.ts';
