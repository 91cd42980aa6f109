// ACT: article classification, as stored and served.

export interface ActResult {
  relevant: boolean;
  confidence: number;
}
