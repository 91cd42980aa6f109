// A loopback annotation server whose calls wait until the test releases them: a request
// held in flight for as long as the test needs, with no sleeps.
import { annotate } from '../../src/sample/annotator.ts';
import { startFaultyServer } from './faulty-servers.ts';

/**
 * A loopback server whose calls wait until the test releases them; `held` counts the waiting
 * ones. `hold` is asked for each call, with its number (from 1) and the article text.
 */
export async function gatedServer(hold: (call: number, text: string) => boolean) {
  let calls = 0;
  const waiting = new Set<() => void>();
  const server = await startFaultyServer({
    kind: 'custom',
    handler: async (text, given) => {
      if (hold(++calls, text)) await new Promise<void>((resolve) => waiting.add(resolve));
      return annotate(text, given);
    },
  });
  return {
    server,
    get calls() {
      return calls;
    },
    get held() {
      return waiting.size;
    },
    release() {
      for (const r of waiting) r();
      waiting.clear();
    },
  };
}
