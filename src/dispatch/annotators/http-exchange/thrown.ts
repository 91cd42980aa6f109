// What a call that threw comes to: the deadline passing or the caller cancelling end the
// step under way with an abort, whatever it was doing, so they are asked first; then a
// body the protocol could not read (AnswerFormatError, the one error type a protocol's
// decode throws for it); anything else is the transport's, described by transport-errors.ts.
import { AnswerFormatError } from '../outcome.ts';
import { describeTransportError, formatDuration } from '../transport-errors.ts';
import type { Deadline } from './deadline.ts';
import type { Progress, StepFailure } from './progress.ts';

/** Where the exchange was when the deadline passed: no headers yet, part of the answer, or polling. */
function deadlineDetail(deadlineMs: number, progress: Progress): string {
  const head = `no complete answer within the deadline of ${formatDuration(deadlineMs)} (`;
  const { polling, headersSeen, bytesReceived } = progress;
  if (polling) {
    const asked = `${polling.notReady} poll${polling.notReady === 1 ? '' : 's'} answered "not ready" so far`;
    return `${head}the answer was asynchronous: ${polling.waiting ? 'waiting to poll' : 'polling'} ${progress.at.href}; ${asked})`;
  }
  return (
    head +
    (headersSeen
      ? `${bytesReceived} byte${bytesReceived === 1 ? '' : 's'} of the answer received so far)`
      : 'no response headers received)')
  );
}

/**
 * A connect the server's host never answered within the deadline (it drops SYNs: down, or
 * behind a firewall or NAT that does not let us in): a `connection` failure, as a refused
 * connect is — the server was not reached, nothing was sent, and what to look at is the
 * same (is it running, is the port open to us), not whether it is busy.
 */
function notAccepted(deadlineMs: number, progress: Progress): StepFailure {
  const where = progress.polling
    ? ` (when polling ${progress.at.href} for the asynchronous answer); the poll was not sent`
    : '; nothing was sent';
  return {
    kind: 'connection',
    detail:
      `the server at ${progress.at.host} did not accept a connection within the deadline of ${formatDuration(deadlineMs)}${where} — ` +
      'is the host up, and is the port open to us? A firewall or NAT that drops connections looks like this',
  };
}

function isConnectTimeout(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'UND_ERR_CONNECT_TIMEOUT';
}

/**
 * The failure a thrown error means. A transport error that may have reached the server
 * counts the request as sent (progress.bytesSent), one refused before connecting does not.
 */
export function failureOfThrown(err: unknown, deadline: Deadline, progress: Progress): StepFailure {
  // The agent's connect timeout is the deadline (agent.ts): whichever of them fires first.
  if ((deadline.expired || isConnectTimeout(err)) && !progress.connected) return notAccepted(deadline.ms, progress);
  if (deadline.expired) return { kind: 'timeout', detail: deadlineDetail(deadline.ms, progress) };
  if (deadline.cancelled)
    return {
      kind: 'connection',
      detail: 'cancelled by the meta-server before the answer was complete (it is stopping or the job was withdrawn)',
    };
  if (err instanceof AnswerFormatError) return { kind: 'protocol', detail: err.message };
  const described = describeTransportError(err, progress.at, progress.headersSeen, progress.bytesReceived);
  if (described.kind !== 'connection' || !described.beforeConnect) progress.bytesSent = progress.bodyBytes;
  const detail = progress.polling ? `${described.detail} (when polling ${progress.at.href} for the asynchronous answer)` : described.detail;
  return { kind: described.kind, detail };
}
