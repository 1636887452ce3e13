import { stem } from './terms';

/** Folders whose children are components in a monorepo: `services/checkout/…` belongs to `checkout`. */
const COMPONENT_PARENTS = ['services', 'packages', 'apps', 'modules', 'libs', 'components', 'plugins', 'cmd'];

export interface ComponentOf {
  name: string;
  /** Where it was read: `front matter`, the folder (`services/checkout/`) or a package manifest (`web/package.json`). */
  from: string;
  /** The component's folder, when it has one. */
  dir?: string;
}

/** A package manifest below the root: its folder and its name (`@acme/storefront` → `storefront`). */
export interface PackageDir {
  dir: string;
  name: string;
  manifest: string;
}

/** A file's components: its front matter's, else the monorepo folder it sits in, else the nearest package manifest's name. */
export function componentsOf(path: string, declared?: string[], packages: PackageDir[] = []): ComponentOf[] {
  if (declared && declared.length > 0) return declared.map((name) => ({ name: name.toLowerCase(), from: 'front matter' }));
  const parts = path.split('/');
  for (let i = 0; i < parts.length - 2; i++) {
    if (COMPONENT_PARENTS.includes(parts[i])) return [{ name: parts[i + 1].toLowerCase(), from: `${parts[i]}/${parts[i + 1]}/`, dir: `${parts[i]}/${parts[i + 1]}` }];
  }
  const pkg = packages.filter((p) => path.startsWith(p.dir + '/')).sort((a, b) => b.dir.length - a.dir.length)[0];
  return pkg ? [{ name: pkg.name, from: pkg.manifest, dir: pkg.dir }] : [];
}

/** The name a package manifest gives its folder: npm's `name` without its scope, lower-cased; undefined when unreadable. */
export function packageName(manifest: string, text: string): string | undefined {
  if (!manifest.endsWith('package.json')) return undefined;
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' && name.trim() ? name.trim().replace(/^@[^/]+\//, '').toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

export interface TaskComponent {
  name: string;
  /** Why the task has it: `named in the task`, `from the task's front matter`, or the folder of a file it names. */
  from: string;
}

/**
 * The task's components: declared in its front matter, else every known component whose name (stemmed, or split on
 * `-`/`_`) appears among the task's words, or that holds a file the task names. Never a guess from nothing.
 */
export function taskComponents(known: Set<string>, words: string[], files: string[], declared?: string, packages: PackageDir[] = []): TaskComponent[] {
  if (declared) return [{ name: declared.toLowerCase(), from: 'from its front matter' }];
  const stems = new Set(words.map(stem));
  const out: TaskComponent[] = [];
  for (const name of [...known].sort()) {
    const parts = name.split(/[-_.\s]+/).filter(Boolean).map(stem);
    if (parts.length > 0 && parts.every((p) => stems.has(p))) out.push({ name, from: 'named in the task' });
  }
  for (const file of files) {
    for (const c of componentsOf(file, undefined, packages)) if (!out.some((o) => o.name === c.name)) out.push({ name: c.name, from: `${file} is in ${c.from}` });
  }
  return out;
}
