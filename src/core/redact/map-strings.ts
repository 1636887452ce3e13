/**
 * Every string of a plain JSON-like value (object keys included) passed through `f`, keeping its shape. What `f`
 * leaves as it is stays the same object, not copied (a 100 000-file manifest was copied whole, every entry); a part
 * that changed is new, and so is each object or array holding it.
 */
export function mapStrings<T>(value: T, f: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return f(v);
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const x = walk(v[i]);
        if (out === undefined && x !== v[i]) out = v.slice(0, i);
        if (out !== undefined) out.push(x);
      }
      return out ?? v;
    }
    if (v && typeof v === 'object') {
      // Its keys, not its entries: a manifest has thousands of small objects, and an entry is a new pair each.
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      let walked: [string, unknown][] | undefined;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const x = o[k];
        const k2 = f(k);
        const x2 = walk(x);
        if (walked === undefined && (k2 !== k || x2 !== x)) walked = keys.slice(0, i).map((before) => [before, o[before]]);
        if (walked !== undefined) walked.push([k2, x2]);
      }
      return walked ? Object.fromEntries(walked) : v;
    }
    return v;
  };
  return walk(value) as T;
}
