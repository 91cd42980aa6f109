// The small caches of dispatch and the API: shared loads, values kept without loading,
// least recently used evicted first, misses not kept.
import { describe, expect, it } from 'vitest';
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
});
