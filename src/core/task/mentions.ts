/** Paths a task mentions → workspace files: the exact path, else the one file whose path ends with it. */
export function resolveMentions(mentioned: string[], files: string[]): string[] {
  const out: string[] = [];
  for (const m of mentioned) {
    const q = m.replace(/^\.?\//, '');
    if (files.includes(q)) {
      out.push(q);
      continue;
    }
    const hits = files.filter((f) => f.endsWith('/' + q));
    if (hits.length === 1) out.push(hits[0]);
  }
  return [...new Set(out)];
}

/** A typed task that is one word shaped like a file name (`tickets.md`) but names no file: the name, else undefined. */
export function taskLooksLikeMissingFile(text: string): string | undefined {
  const t = text.trim();
  return t.length > 0 && t.length < 256 && /^[\w./\\-]+\.(md|markdown|txt|yaml|yml|json|mdx)$/i.test(t) ? t : undefined;
}

/**
 * Identifiers that name a source file: `SeatAllocator#allocate` → `app/services/seat_allocator.rb`,
 * `NotificationConsumer` → `src/notifier/NotificationConsumer.ts`. Compared without case, `_` or `-`; only a name
 * that fits at most two files counts, and documents are not source.
 */
export function resolveIdentifiers(identifiers: string[], files: string[]): string[] {
  const norm = (t: string) => t.toLowerCase().replace(/[_-]/g, '');
  const byName = new Map<string, string[]>();
  for (const f of files) {
    if (/\.(md|markdown|mdx|txt|log|json|ya?ml|lock)$/i.test(f)) continue;
    const name = norm(f.replace(/^.*\//, '').replace(/\..*$/, ''));
    if (name.length < 4) continue;
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  const out: string[] = [];
  for (const id of identifiers) {
    const head = norm(id.split(/[#.(]/)[0]);
    const hits = byName.get(head) ?? [];
    if (hits.length > 0 && hits.length <= 2) out.push(...hits);
  }
  return [...new Set(out)];
}
