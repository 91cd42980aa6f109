// Preloaded into a `metaserver worker` process by the benches (node --import this file), so
// that a bench can read the worker's own event-loop delay and memory while it holds work.
// Plain JavaScript on purpose: the worker runs from the bundle, without tsx. Messages over
// the IPC channel: {probe: 'reset'} restarts the delay histogram; {probe: 'read'} answers
// {rss, heapUsed, p50, p99, max} (delays in ms). Nothing here is part of the meta-server.
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (process.send) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (msg) => {
    if (msg?.probe === 'reset') delay.reset();
    if (msg?.probe !== 'read') return;
    const memory = process.memoryUsage();
    process.send({
      probe: 'reading',
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      p50: delay.percentile(50) / 1e6,
      p99: delay.percentile(99) / 1e6,
      max: delay.max / 1e6,
    });
  });
  // The channel must not keep a stopping worker alive.
  process.channel?.unref();
}
