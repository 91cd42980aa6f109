// Looking a number up in a sorted typed array (release indexes keep their keys so).

/** Index of `value` in ascending `sorted` (a Float64Array of codes, a Uint32Array of ids, …), or -1. */
export function findSorted(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid];
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}
