// The load generator of bench/api.ts, run in a process of its own (plain node): `loadtest`
// sending requests at a steady rate — one every 1000/rate ms, whether or not the earlier ones
// have been answered (a new keep-alive connection when all are busy) — for `seconds`.
// Prints one JSON line: the rate achieved, latency p50/p99/max in ms, failed requests.
//   node bench/support/paced-load.mjs URL RATE SECONDS [AUTHORIZATION]
//
// Not autocannon: its `-R` lets every connection send its quota for the second back to back
// at the start of each second, then wait, and its coordinated-omission correction then
// assumes a request was due every millisecond; a bare node:http server measured p99 9–28 ms
// that way on a 2-core machine, and 1–2 ms at the same rate from this generator.
import { loadTest } from 'loadtest';

const [url, rate, seconds, authorization] = process.argv.slice(2);
const result = await loadTest({
  url,
  requestsPerSecond: Number(rate),
  maxSeconds: Number(seconds),
  agentKeepAlive: true,
  quiet: true,
  headers: authorization ? { authorization } : {},
});
process.stdout.write(
  `${JSON.stringify({
    rate: result.effectiveRps,
    p50: result.percentiles[50],
    p99: result.percentiles[99],
    max: result.maxLatencyMs,
    failed: result.totalErrors,
  })}\n`,
);
process.exit(0);
