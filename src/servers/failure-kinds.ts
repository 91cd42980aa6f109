// What each kind of failed attempt means for the team, and what to do about it: the hint of
// each kind's example in a server's failures by kind (GET /api/servers/:id, failuresByKind).
const HINTS: Record<string, string> = {
  timeout:
    'The server did not answer before the deadline: is it busy or stuck? Lower its concurrency or ask the organiser about the deadline.',
  connection: 'The server could not be reached: check that it is running, and its URL, port and firewall.',
  http: 'The server answered with an HTTP error status: look at its own log for the request.',
  protocol: "The answer is not valid for the server's protocol: compare it with the protocol's example answer.",
  fault: "The server answered with a fault (an error of its own): look at its log; the detail quotes the server's message.",
  invalid: "The answer does not follow the task's format: the detail names the fields; run the test suite to see every problem.",
  interrupted: 'A worker of the meta-server stopped during the request; it was sent again and is not counted against the server.',
};

/** The hint for a kind of failure. */
export function failureKindHint(kind: string): string {
  return HINTS[kind] ?? 'See the detail of the example.';
}
