import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultPolicy } from '../../../src/core/policy';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { tempWorkspace } from './fixtures';

const accepted = (title: string) => `# ${title}\n\n## Status\n\nAccepted\n`;

describe('scanning hygiene for documents, decisions and instructions', () => {
  it('honours .gitignore (nested too) and the policy excludes; skips binaries, secrets and oversized files', () => {
    const root = tempWorkspace({
      '.gitignore': 'scratch/\n',
      'AGENTS.md': 'Use pnpm.\n',
      'scratch/AGENTS.md': 'Ignored by .gitignore.\n',
      'docs/adr/0001-kept.md': accepted('1. Kept'),
      'docs/adr/.gitignore': 'drafts/\n',
      'docs/adr/drafts/0002-draft.md': accepted('2. Ignored by the nested .gitignore'),
      'docs/adr/archive/0003-old.md': accepted('3. Excluded by the policy'),
      'docs/adr/0004-diagram.md': Buffer.from([0x23, 0x20, 0x41, 0x00, 0x01, 0x02]),
      'docs/.env': 'API_TOKEN=abc\n',
      'docs/huge.md': `# Huge\n\n${'x'.repeat(5000)}\n`,
    });
    const policy = defaultPolicy();
    policy.exclude = [...policy.exclude, 'docs/adr/archive/**'];
    policy.max_file_bytes = 4096;
    const s = loadSnapshot({ root, task: 'Review the decisions', policy });
    assert.deepEqual(s.documents.map((d) => d.path), ['docs/adr/0001-kept.md']);
    assert.deepEqual(s.instructions.map((i) => i.path), ['AGENTS.md']);
    assert.deepEqual(s.warnings.map((w) => `${w.source}: ${w.message}`), [
      'docs/.env: secret file (by name): never read or sent',
      'docs/huge.md: skipped: 5009 bytes exceeds max_file_bytes 4096',
      'docs/adr/0004-diagram.md: skipped: binary (a NUL byte in the first 8 KiB); not in this request',
    ]);
  });

  it('reads ADRs from the folder `.adr-dir` names, on top of the policy\'s folders', () => {
    const root = tempWorkspace({
      '.adr-dir': 'doc/architecture/decisions\n',
      'doc/architecture/decisions/0001-record.md': accepted('1. Record architecture decisions'),
      'docs/adr/0001-also.md': accepted('1. Also a decision'),
      'doc/architecture/overview.md': '# Overview\n\nNot a decision.\n',
    });
    const s = loadSnapshot({ root, task: 'x' });
    assert.deepEqual(s.documents.map((d) => [d.path, d.decision?.id ?? null]), [
      ['doc/architecture/decisions/0001-record.md', 'ADR-0001'],
      ['doc/architecture/overview.md', null],
      ['docs/adr/0001-also.md', 'ADR-0001'],
    ]);
  });

  it('a policy can replace the ADR folders; a .log4brains.yml with bad YAML is a warning, not a crash', () => {
    const root = tempWorkspace({
      '.log4brains.yml': 'project:\n  adrFolder: [./decisions\n',
      'decisions/0001-x.md': accepted('1. X'),
      'docs/adr/0002-y.md': accepted('2. Y'),
    });
    const policy = defaultPolicy();
    policy.sources = { ...policy.sources, adr_dirs: ['decisions'] };
    const s = loadSnapshot({ root, task: 'x', policy });
    assert.deepEqual(s.documents.map((d) => [d.path, d.decision?.status ?? null]), [
      ['decisions/0001-x.md', 'accepted'],
      ['docs/adr/0002-y.md', null],
    ]);
    assert.equal(s.warnings.length, 1);
    assert.equal(s.warnings[0].source, '.log4brains.yml');
    assert.match(s.warnings[0].message, /^invalid YAML: /);
  });
});
