// What a family that scores spans says about a discontinuous corpus annotation (two or more
// locations) it leaves out: a span from the first fragment's start to the last one's end
// would cover text the annotation does not (BC5CDR's "renal and/or hepatic dysfunction"
// holds "renal dysfunction" as [367, 372) + [388, 399)), so it is never widened in silence.
// BC5CDR's individual mentions of a composite are not this: each family keeps its own rule for them.
import { describeFragments, type CorpusAnnotation } from '../../formats/bioc-corpus.ts';

/** How many left-out annotations are named one by one; the rest are counted in one more warning. */
const NAMED = 20;

export interface DiscontinuousLeftOut {
  document: string;
  annotation: CorpusAnnotation;
}

/**
 * One warning per discontinuous annotation left out (up to NAMED, then a count naming their
 * documents): document, id, text, fragments, and what to do. `unit` says what the family
 * scores ("a mention", "an entity", "an annotation").
 */
export function discontinuousWarnings(left: readonly DiscontinuousLeftOut[], task: string, unit: string): string[] {
  const warnings = left
    .slice(0, NAMED)
    .map(
      ({ document, annotation }) =>
        `document ${document}: ${describeFragments(annotation)} is discontinuous and was left out: ${task} scores ${unit} as one span, and [${annotation.start}, ${annotation.end}) would cover text it does not; write one annotation per fragment (or, for a part of a composite mention, infon CompositeRole IndividualMention as BC5CDR does)`,
    );
  if (left.length > NAMED) {
    const documents = [...new Set(left.slice(NAMED).map((l) => l.document))];
    warnings.push(
      `${left.length - NAMED} more discontinuous annotation(s) were left out likewise (documents ${documents.slice(0, 10).join(', ')}${documents.length > 10 ? ', …' : ''})`,
    );
  }
  return warnings;
}
