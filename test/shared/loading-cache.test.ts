// The small caches of dispatch and the API: shared loads, values kept without loading,
// least recently used evicted first, misses not kept, refreshed ahead in the background.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadingCache } from '../../src/shared/loading-cache.ts';

describe('LoadingCache', () => {
  it('shares one load between concurrent gets and keeps its value', async () => {
    let loads = 0;
    const cache = new LoadingCache<string, number>(4, Infinity);
    const load = async (k: string) => (loads++, k.length);
    expect(await Promise.all([cache.get('abc', load), cache.get('abc', load)])).toEqual([3, 3]);
    expect(await cache.get('abc', load)).toBe(3);
    expect(loads).toBe(1);
  });

  it('serves a value given with set without loading it, and evicts the least recently used', async () => {
    const loaded: string[] = [];
    const cache = new LoadingCache<string, string>(2, Infinity);
    const load = async (k: string) => (loaded.push(k), `loaded ${k}`);
    cache.set('a', 'given a');
    cache.set('b', 'given b');
    expect(await cache.get('a', load)).toBe('given a'); // a is now the most recent
    cache.set('c', 'given c'); // evicts b
    expect(await cache.get('c', load)).toBe('given c');
    expect(await cache.get('b', load)).toBe('loaded b');
    expect(loaded).toEqual(['b']);
  });

  it('does not keep misses, and keeps nothing with a TTL of 0', async () => {
    let loads = 0;
    const missing = new LoadingCache<string, string>(4, Infinity);
    const nothing = async () => (loads++, null);
    expect(await missing.get('x', nothing)).toBeNull();
    expect(await missing.get('x', nothing)).toBeNull();
    expect(loads).toBe(2);
    const off = new LoadingCache<string, string>(4, 0);
    off.set('y', 'given');
    expect(await off.get('y', async () => 'loaded')).toBe('loaded');
  });
  it('with a byte bound, evicts the least recently used until the values kept fit; a value bigger than the bound is answered, not kept, and evicts nothing', async () => {
    const cache = new LoadingCache<string, string>(100, Infinity, Infinity, { maxBytes: 10, bytesOf: (v) => v.length });
    let loads = 0;
    const load = async (k: string) => (loads++, k.repeat(4));
    await cache.get('a', load); // 4 bytes
    await cache.get('b', load); // 8
    expect(cache.keptBytes).toBe(8);
    await cache.get('a', load); // a is now the most recent
    cache.set('c', 'cccc'); // 12 > 10: b goes
    expect(cache.keptBytes).toBe(8);
    expect(loads).toBe(2);
    await cache.get('b', load);
    expect(loads).toBe(3); // b was loaded again; a went to make room
    expect(await cache.get('huge', async () => 'x'.repeat(11))).toBe('x'.repeat(11));
    expect(cache.keptBytes).toBe(8); // c and b still kept
    await cache.get('c', load);
    await cache.get('b', load);
    expect(loads).toBe(3);
    cache.invalidate('c');
    expect(cache.keptBytes).toBe(4);
    cache.invalidate();
    expect(cache.keptBytes).toBe(0);
  });

  describe('with refreshAfterMs', () => {
    afterEach(() => vi.useRealTimers());
    /**
     * At time 0 (a fake clock), a cache with ttl 1000 and refreshAfterMs 500 holding `first`
     * for 'k', and its load: each call waits in `pending` until the test settles it.
     */
    async function cacheHolding(first: string) {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(0);
      const pending: Array<{ key: string; resolve(v: string | null): void; reject(e: Error): void }> = [];
      const load = (key: string) => new Promise<string | null>((resolve, reject) => pending.push({ key, resolve, reject }));
      const cache = new LoadingCache<string, string>(4, 1000, 500);
      const loaded = cache.get('k', load);
      pending[0].resolve(first);
      expect(await loaded).toBe(first);
      return { cache, pending, load };
    }

    it('answers with the kept value at once past refreshAfterMs, loads it again once in the background, then answers with the new one', async () => {
      const { cache, pending, load } = await cacheHolding('v1');
      vi.setSystemTime(499);
      expect(await cache.get('k', load)).toBe('v1');
      expect(pending).toHaveLength(1); // younger than refreshAfterMs: no load
      vi.setSystemTime(600);
      expect(await cache.get('k', load)).toBe('v1'); // not waiting for the load it started
      expect(await cache.get('k', load)).toBe('v1');
      expect(pending).toHaveLength(2); // one background load, not one per get
      pending[1].resolve('v2');
      await new Promise((r) => setImmediate(r));
      expect(await cache.get('k', load)).toBe('v2');
      vi.setSystemTime(1500); // the new value counts from when its load started (600)
      expect(await cache.get('k', load)).toBe('v2');
      expect(pending).toHaveLength(3);
    });

    it('keeps the old value until its ttl when the background load fails; the get after that loads and reports the error', async () => {
      const { cache, pending, load } = await cacheHolding('v1');
      vi.setSystemTime(700);
      expect(await cache.get('k', load)).toBe('v1');
      pending[1].reject(new Error('database unreachable'));
      await new Promise((r) => setImmediate(r));
      expect(await cache.get('k', load)).toBe('v1'); // a new background load
      expect(pending).toHaveLength(3);
      vi.setSystemTime(1001);
      const expired = cache.get('k', load);
      pending[3].reject(new Error('database unreachable'));
      await expect(expired).rejects.toThrow('database unreachable');
    });

    it('drops what a background load brings when the key was invalidated meanwhile', async () => {
      const { cache, pending, load } = await cacheHolding('before the change');
      vi.setSystemTime(600);
      await cache.get('k', load); // starts a background load
      cache.invalidate('k');
      pending[1].resolve('read before the change');
      await new Promise((r) => setImmediate(r));
      const after = cache.get('k', load);
      expect(pending).toHaveLength(3);
      pending[2].resolve('after the change');
      expect(await after).toBe('after the change');
    });
  });
});
