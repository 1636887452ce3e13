import type { ScannedFile } from './scan';
import { readText } from './scan';
import { packageName, type PackageDir } from '../relevance/components';

/** The workspace's package manifests below the root (`packages/web/package.json` → component `web`), for relevance. */
export function packagesOf(root: string, files: ScannedFile[]): PackageDir[] {
  const out: PackageDir[] = [];
  for (const f of files) {
    if (!f.path.includes('/') || !f.path.endsWith('/package.json') || f.size > 256 * 1024 || f.path.includes('node_modules/')) continue;
    try {
      const name = packageName(f.path, readText(root, f.path));
      if (name) out.push({ dir: f.path.slice(0, -'/package.json'.length), name, manifest: f.path });
    } catch {
      // unreadable manifest: no component from it
    }
  }
  return out;
}
