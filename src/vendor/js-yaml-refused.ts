/**
 * What the bundles get for `js-yaml` (scripts/build.mjs aliases it here). gray-matter requires js-yaml for its
 * default YAML engine, but front matter is parsed with `yaml` (sources/frontmatter.ts hands gray-matter its own
 * yaml and yml engines and refuses every other one), so js-yaml is never called: bundling it would carry a second
 * YAML parser (100 KB) for nothing. gray-matter binds these two at load time; a call means an engine was not
 * replaced, and fails loudly rather than parsing with another parser.
 */
function refused(name: string): never {
  throw new Error(`js-yaml.${name} was called, but js-yaml is not bundled: YAML is parsed with the yaml package (src/core/sources/frontmatter.ts)`);
}

export function safeLoad(): never {
  return refused('safeLoad');
}

export function safeDump(): never {
  return refused('safeDump');
}
