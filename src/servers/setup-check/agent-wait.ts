// The setup check of a pull server: the meta-server cannot call it, so the check waits for
// the server's agent to take the sample article on lease (src/pull/setup-lease.ts); until
// then the check says so, and once the answer comes it is judged like any other check.
import type { ServerCheck } from '../repository.ts';

const WAITING_FOR_AGENT = 'waiting';

/** The check of a pull server whose agent has not yet answered the sample article. */
export function waitingForAgentCheck(): ServerCheck {
  return {
    ok: false,
    reachable: false,
    at: new Date().toISOString(),
    ms: 0,
    outcome: WAITING_FOR_AGENT,
    detail:
      'waiting for its agent: run `metaserver agent` next to your server; the agent takes the sample article first, and the check passes when its answer is valid',
    errors: [],
    warnings: [],
  };
}

/** Whether the server's setup article is still to be offered to its agent. */
export function awaitsSetupAnswer(check: ServerCheck | null): boolean {
  return check === null || check.outcome === WAITING_FOR_AGENT;
}
