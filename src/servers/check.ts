// The setup check: call the server with a short built-in article and report whether it
// answers, how long it took and whether the answer passes validation. Registration
// succeeds whatever the result; teams register before their servers are up.
import type { Challenge } from '../challenges/repository.ts';
import type { AnswerReader } from '../dispatch/answer-reader.ts';
import { assembleMethodCall, encodeParam, encodeStringParam } from '../xmlrpc/codec.ts';
import { callXmlRpc } from '../xmlrpc/client.ts';
import { policedAgent } from './policed-agent.ts';
import type { AnnotationServer, ServerCheck } from './repository.ts';

/** Includes a character outside the Basic Multilingual Plane, so offset bugs show up at setup. */
export const CHECK_ARTICLE = [
  'Binding of 𝛼-synuclein to BRCA1 in yeast',
  '',
  'We show that SNCA (P37840) interacts with BRCA1 (P38398) and that the complex is stable.',
  'It binds TP53 as well.',
].join('\n');

export const CHECK_GIVEN = 'T1\tProtein 11 22\t𝛼-synuclein\nT2\tProtein 26 31\tBRCA1';

export async function checkServer(
  server: Pick<AnnotationServer, 'url' | 'method' | 'tasks' | 'sendMetadata'>,
  challenge: Pick<Challenge, 'tasks' | 'mentionTypes'>,
  opts: { deadlineMs: number; maxAnswerBytes: number; answers: AnswerReader; publicUrlsOnly: boolean },
): Promise<ServerCheck> {
  const params = [encodeStringParam(CHECK_ARTICLE)];
  if (challenge.tasks.includes('COREF')) params.push(encodeStringParam(CHECK_GIVEN));
  if (server.sendMetadata) params.push(encodeParam({ article: 'setup-check', tasks: server.tasks }));
  const at = new Date().toISOString();
  // Read like dispatch reads answers: a big one off the event loop.
  const decode = opts.answers.decoder({ tasks: server.tasks, text: CHECK_ARTICLE, given: CHECK_GIVEN, mentionTypes: challenge.mentionTypes });
  const call = await callXmlRpc(
    { url: server.url, body: assembleMethodCall(server.method, params), deadlineMs: opts.deadlineMs, maxResponseBytes: opts.maxAnswerBytes, decode },
    policedAgent(opts.publicUrlsOnly),
  );
  if (!call.ok) {
    const reachable = call.kind !== 'connection' && call.kind !== 'timeout';
    return { ok: false, reachable, at, ms: call.ms, outcome: call.kind, detail: call.detail, errors: [], warnings: [] };
  }
  // The first FIRST_ISSUES errors and warnings are shown and kept: a server answering the
  // sample article with 100,000 wrong mentions gets its point across with those.
  const { errorCount, firstErrors, warningCount, firstWarnings } = call.value;
  const ok = errorCount === 0;
  const more = (count: number, shown: number) => (count > shown ? `; the first ${shown} are listed` : '');
  return {
    ok,
    reachable: true,
    at,
    ms: call.ms,
    outcome: ok ? 'ok' : 'invalid',
    detail: ok ? undefined : `the answer to the sample article failed validation (${errorCount} errors${more(errorCount, firstErrors.length)})`,
    errors: firstErrors,
    warnings: firstWarnings,
    ...(warningCount > firstWarnings.length ? { warningCount } : {}),
  };
}
