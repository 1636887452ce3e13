import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadSnapshot } from '../../../src/core/sources/snapshot';
import { NO_GIT } from '../../../src/core/task/git';
import { outcome, REPOS } from './repos';

// Real decision records (test/fixtures/repos/real-*, each with its source, commit and licence in README): the misses
// once measured on main, one regression test each.
const MP = path.join(REPOS, 'real-modernisation-platform');
const MADR = path.join(REPOS, 'real-madr');
const L4B = path.join(REPOS, 'real-log4brains');
const ADR = 'architecture-decision-record';

const statuses = (root: string) =>
  loadSnapshot({ root, task: 'x', changes: NO_GIT })
    .documents.filter((d) => d.decision)
    .map((d) => `${path.posix.basename(d.path)} ${d.decision!.status}${d.decision!.supersededBy.length ? ` by ${d.decision!.supersededBy.join(',')}` : ''}`);

describe('real decision records', () => {
  it('modernisation-platform: records in architecture-decision-record/ (no ADR tool configures it) are decisions, emoji statuses read', () => {
    assert.deepEqual(statuses(MP), [
      '0001-record-architecture-decisions.md accepted',
      '0002-use-iam-federated-access.md rejected',
      '0003-use-aws-sso.md accepted',
      '0004-use-bash-node-python-as-core-languages.md superseded by ADR-0019',
      '0009-use-secrets-manager-for-secrets.md accepted',
      '0019-use-bash-go-as-core-languages.md accepted',
      '0021-use-a-go-lambda-for-instance-scheduling.md accepted',
      '0025-non-standard-user-infrastructure.md superseded',
    ]);
  });

  it('madr: records without a status (all but one) are "status unknown"; `status: on hold` is read', () => {
    assert.deepEqual(statuses(MADR), [
      '0001-use-CC0-or-MIT-as-license.md unknown',
      '0003-provide-own-madr-tools.md on hold',
      '0008-add-status-field.md unknown',
      '0011-use-asterisk-as-list-marker.md unknown',
      '0012-use-curly-braces-to-denote-placeholder.md unknown',
      // Its `status: accepted` is inside a fenced example, not the record's own.
      '0013-use-yaml-front-matter-for-meta-data.md unknown',
      'adr-template.md draft',
    ]);
  });

  it('"Which language should a new Lambda be in?": the superseded 0004 is never loaded; its successor 0019 is', () => {
    const o = outcome(MP, 'Which language should a new Lambda be in?');
    assert.match(o.selected.get(`${ADR}/0019-use-bash-go-as-core-languages.md`)!, /^applicable decision \(accepted\); relevant: /);
    assert.equal(o.selected.has(`${ADR}/0004-use-bash-node-python-as-core-languages.md`), false);
    assert.equal(o.rejected.get(`${ADR}/0004-use-bash-node-python-as-core-languages.md`), 'superseded by ADR-0019');
  });

  it('a retired decision the task asks about is named in <retired-decisions> with its status and successor, not loaded and not an index entry (read_document refuses it)', () => {
    const o = outcome(MP, 'Are bash, node and python still our core languages?');
    const old = `${ADR}/0004-use-bash-node-python-as-core-languages.md`;
    assert.equal(o.selected.has(old), false);
    assert.equal(o.indexed.has(old), false);
    assert.match(o.rejected.get(old)!, /^superseded by ADR-0019: not in force, not loaded; named in <retired-decisions> with its status because the task asks about it \(mentions bash, python, core, languages \(rank 1 of 8, score 1\)\); not in the index \(read_document does not fetch a retired decision\)$/);
    const index = o.blocks.find((b) => b.kind === 'index')!;
    assert.equal(index.meta.listed!.includes(old), false);
    const retired = index.text.slice(index.text.indexOf('<retired-decisions'));
    assert.deepEqual(retired.split('\n').filter((l) => l.includes('<decision ')), [`  <decision path="${old}" title="${index.text.match(/<decision path="[^"]+" title="([^"]+)"/)![1]}" status="superseded by ADR-0019, not in force" />`]);
    assert.doesNotMatch(index.text.slice(0, index.text.indexOf('<retired-decisions')), new RegExp(`path="${old}"`));
    assert.ok(o.selected.has(`${ADR}/0019-use-bash-go-as-core-languages.md`));

    const rejected = outcome(MP, 'Should people sign in with IAM federated access through GitHub?');
    assert.match(rejected.rejected.get(`${ADR}/0002-use-iam-federated-access.md`)!, /^rejected decision: not in force, not loaded; named in <retired-decisions>/);
    assert.match(rejected.blocks.find((b) => b.kind === 'index')!.text, new RegExp(`<decision path="${ADR}/0002-use-iam-federated-access.md" title="[^"]*" status="rejected, not in force" />`));
    assert.ok(rejected.selected.has(`${ADR}/0003-use-aws-sso.md`));

    const onHold = outcome(MADR, 'Should we write our own MADR tooling?');
    assert.match(onHold.rejected.get('docs/decisions/0003-provide-own-madr-tools.md')!, /^on hold decision: not in force, not loaded; named in <retired-decisions>/);
    const held = onHold.blocks.find((b) => b.kind === 'index')!;
    assert.equal(held.meta.listed!.includes('docs/decisions/0003-provide-own-madr-tools.md'), false);
    assert.match(held.text, /<decision path="docs\/decisions\/0003-provide-own-madr-tools.md" title="[^"]*" status="on hold, not in force" \/>/);
  });

  it('"How should a record carry its status?" selects "Add status field" (status and record were stop words)', () => {
    const o = outcome(MADR, 'How should a record carry its status?');
    assert.match(o.selected.get('docs/decisions/0008-add-status-field.md')!, /^applicable decision \(status unknown\); relevant: .*mentions status/);
  });

  it('"Which licence …?" selects the licence decision (British spelling, and the query was stemmed twice)', () => {
    const o = outcome(MADR, 'Which licence should the templates be published under?');
    assert.match(o.selected.get('docs/decisions/0001-use-CC0-or-MIT-as-license.md')!, /mentions licence/);
  });

  it('"applicable decision (accepted)" only for a record that declares accepted; otherwise "status unknown"', () => {
    const o = outcome(MADR, 'Where should metadata such as the deciders and the date go?');
    assert.match(o.selected.get('docs/decisions/0013-use-yaml-front-matter-for-meta-data.md')!, /^applicable decision \(status unknown\); relevant: mentions metadata, date/);
    const mp = outcome(MP, 'How should we store secrets for the platform and member accounts?');
    assert.match(mp.selected.get(`${ADR}/0009-use-secrets-manager-for-secrets.md`)!, /^applicable decision \(accepted\); relevant: /);
  });

  it('log4brains: the superseded number decision is out, the slug decision that replaced it is in', () => {
    const o = outcome(L4B, 'What identifies an ADR uniquely: its number or its slug?');
    assert.ok(o.selected.has('docs/adr/20201016-use-the-adr-slug-as-its-unique-id.md'));
    assert.equal(o.selected.has('docs/adr/20200926-use-the-adr-number-as-its-unique-id.md'), false);
  });
});
