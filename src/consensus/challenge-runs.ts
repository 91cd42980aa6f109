// A challenge's stored answers, per document, as the consensus code needs them: the
// documents keyed by organiser id (the gold's document ids), each with the answers of the
// named runs (one run per server). Used to train an ensemble and to score the consensus
// as one more leaderboard row. Articles without an organiser id (on-demand ones) have no
// gold and are left out.
import type { AnswerResult } from '../families/registry.ts';
import type { EnsembleDocument } from './ensemble.ts';
import { consensusAsResult, voteConsensus, type VoteOptions } from './voting.ts';

/** A server's answers named as a run (the leaderboard's `T<team>_S<n>`). */
export interface NamedServer {
  serverId: number;
  run: string;
}

export interface ChallengeDocument {
  doc: string;
  answers: Array<{ serverId: number; run: string; result: AnswerResult }>;
}

/** Where the answers come from (AnswerRepository; named by shape so this folder needs no import of articles/). */
export interface StoredAnswers {
  challengeAnswers(
    challengeId: number,
    serverIds: readonly number[],
  ): Promise<Array<{ doc: string; serverId: number; result: AnswerResult }>>;
}

/** Every document of the challenge that at least one of the servers answered, by organiser id. */
export async function challengeDocuments(
  answers: StoredAnswers,
  challengeId: number,
  servers: readonly NamedServer[],
): Promise<ChallengeDocument[]> {
  if (servers.length === 0) return [];
  const names = new Map(servers.map((s) => [s.serverId, s.run]));
  const rows = await answers.challengeAnswers(challengeId, [...names.keys()]);
  const docs = new Map<string, ChallengeDocument>();
  for (const r of rows) {
    let doc = docs.get(r.doc);
    if (!doc) docs.set(r.doc, (doc = { doc: r.doc, answers: [] }));
    doc.answers.push({ serverId: r.serverId, run: names.get(r.serverId)!, result: r.result });
  }
  return [...docs.values()];
}

/** The documents in the ensemble's shape: runs by name. */
export function ensembleDocuments(docs: readonly ChallengeDocument[]): EnsembleDocument[] {
  return docs.map((d) => ({ id: d.doc, runs: Object.fromEntries(d.answers.map((a) => [a.run, a.result])) }));
}

/** The voting consensus of every document as a plain answer (documents without one are left out). */
export function votedResults(docs: readonly ChallengeDocument[], options: VoteOptions = {}): Array<{ doc: string; result: AnswerResult }> {
  return docs.flatMap((d) => {
    const result = consensusAsResult(
      voteConsensus(
        d.answers.map((a) => ({ serverId: a.serverId, result: a.result })),
        options,
      ),
    );
    return Object.keys(result).length > 0 ? [{ doc: d.doc, result }] : [];
  });
}
