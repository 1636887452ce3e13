/**
 * A Map used as a least-recently-used cache: a hit moves its key to the newest end, and past its bound the oldest
 * entries go, a quarter of the bound at a time, in one walk. (One at a time, `keys().next()` walks over every entry
 * deleted since the Map last compacted: with 100 000 documents through a 16 384-entry memo that was quadratic.)
 */

/** The value of `key`, made the most recently used; undefined when it is not there. */
export function recent<K, V>(map: Map<K, V>, key: K): V | undefined {
  const hit = map.get(key);
  if (hit !== undefined) {
    map.delete(key);
    map.set(key, hit);
  }
  return hit;
}

/** Past `bound` entries, forget the least recently used down to three quarters of it, in one walk. */
export function keepWithin<K, V>(map: Map<K, V>, bound: number): void {
  if (map.size <= bound) return;
  let n = map.size - bound + (bound >> 2);
  for (const key of map.keys()) {
    if (n-- <= 0) break;
    map.delete(key);
  }
}
