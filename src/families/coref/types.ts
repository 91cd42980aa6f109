// COREF: coreference expressions and links (BioNLP-ST 2011), as stored and served.

export interface CorefExpression {
  id: string;
  start: number;
  end: number;
  text: string;
  /** The minimal boundary (head), when the standoff line gives one. */
  min?: { start: number; end: number; text: string };
}

export interface CorefLink {
  id: string;
  anaphor: string;
  antecedent: string;
  /** Protein ids named in brackets on the link line (informative only). */
  proteins?: string[];
}

export interface CorefResult {
  expressions: CorefExpression[];
  links: CorefLink[];
}
