#!/usr/bin/env node
// Part of `npm run eval`: decision records from public repositories, each in its own convention, and free-text tasks
// whose governing decision was picked by reading the records first. Each task runs the real chain (loadSnapshot +
// assemble, what `ctxctl preview --no-git` runs) and the script prints, per repository and task: whether the
// governing decision is selected (loaded), indexed or rejected, its rank, and any retired record (superseded,
// deprecated, rejected, on hold: listed below from reading the records, not from our parser) sent as current, i.e.
// loaded, or listed in the index without its retired status; whether a retired decision the task asks about is
// named in the request with its status; and how many of the manifest's reasons about these files are true of them
// (relevance/reasons.ts: "mentions X" by the index's tokenisation, "applicable decision (accepted)").
//
// Sources: a fetched bare git copy under --mirrors DIR (default /work/.mirror, `owner+name/repo`) when there is one,
// else the small extract committed under test/fixtures/repos/real-<name>/ (licence permitting). Tasks whose
// records are in neither are skipped and counted. Runs on the TypeScript output in out/ (tsc -p .).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { assemble } = require(path.join(root, 'out/src/core/chain/assemble.js'));
const { loadSnapshot } = require(path.join(root, 'out/src/core/sources/snapshot.js'));
const { diskReader } = require(path.join(root, 'out/src/core/sources/reader.js'));
// The core reaches the disk only through the installed Host.
require(path.join(root, 'out/src/host/disk.js')).installDiskHost();
let checkRelevanceReason;
try {
  ({ checkRelevanceReason } = require(path.join(root, 'out/src/core/relevance/reasons.js')));
} catch {
  checkRelevanceReason = undefined; // an older build without the reason checker: the column says so
}

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const mirrors = flag('--mirrors') ?? '/work/.mirror';
const verbose = args.includes('--verbose');
const fixturesOnly = args.includes('--fixtures');

/**
 * The repositories. `paths`: what of the repository is the workspace; `rename`: a layout change applied to the copy
 * (the records themselves unchanged); `retired`: the records whose own text retires them, by reading.
 */
const REPOS = [
  {
    name: 'modernisation-platform',
    mirror: 'ministryofjustice+modernisation-platform',
    fixture: 'real-modernisation-platform',
    convention: 'Nygard `## Status` with emoji (✅ Accepted, ⌛️ Superseded [0019](…)), folder architecture-decision-record/',
    paths: ['architecture-decision-record'],
    retired: ['0002-use-iam-federated-access', '0004-use-bash-node-python-as-core-languages', '0011-use-vpc-flow-logs', '0012-use-tgw-route-analyzer', '0013-use-iac-network-tester', '0025-non-standard-user-infrastructure', '0033-s3-state-bucket-condition-security', '0034-use-cloud-map'],
    tasks: [
      { task: 'Which language should a new Lambda be in?', governing: '0019-use-bash-go-as-core-languages' },
      { task: 'How should we store secrets for the platform and member accounts?', governing: '0009-use-secrets-manager-for-secrets' },
      { task: 'Should people sign in with IAM federated access through GitHub?', governing: '0003-use-aws-sso', asksAbout: '0002-use-iam-federated-access' },
      { task: 'Are bash, node and python still our core languages?', governing: '0019-use-bash-go-as-core-languages', asksAbout: '0004-use-bash-node-python-as-core-languages' },
    ],
  },
  {
    name: 'madr',
    mirror: 'adr+madr',
    fixture: 'real-madr',
    convention: 'MADR 3/4: front matter (status often absent, `status: on hold`), docs/decisions/',
    paths: ['docs/decisions'],
    retired: ['0003-provide-own-madr-tools'],
    tasks: [
      { task: 'How should a record carry its status?', governing: '0008-add-status-field' },
      { task: 'Which licence should the templates be published under?', governing: '0001-use-CC0-or-MIT-as-license' },
      { task: 'Where should metadata such as the deciders and the date go?', governing: '0013-use-yaml-front-matter-for-meta-data' },
      { task: 'Which character should be used as the list marker?', governing: '0011-use-asterisk-as-list-marker' },
      { task: 'Should we write our own MADR tooling?', governing: null, asksAbout: '0003-provide-own-madr-tools' },
    ],
  },
  {
    name: 'adr-tools (flattened to the root)',
    mirror: 'npryce+adr-tools',
    fixture: null,
    convention: 'adr-tools Nygard records moved to the root as adr-NNNN-*.md (licence GPL-3.0: evaluated on the fetched copy, not committed)',
    paths: ['doc/adr'],
    rename: (p) => p.replace(/^doc\/adr\/(\d+)-/, 'adr-$1-'),
    retired: [],
    tasks: [
      { task: 'How should dates be formatted in the records?', governing: '0008-use-iso-8601-format-for-dates' },
      { task: 'How do the scripts get their configuration?', governing: '0007-invoke-adr-config-executable-to-get-configuration' },
      { task: 'What are the tools implemented in?', governing: '0002-implement-as-shell-scripts' },
    ],
  },
  {
    name: 'log4brains',
    mirror: 'thomvaill+log4brains',
    fixture: 'real-log4brains',
    convention: 'log4brains bullets (`- Status: superseded by [slug](…)`), dated slugs, docs/adr and packages/*/docs/adr',
    paths: ['docs/adr', 'packages/core/docs/adr'],
    retired: ['20200926-use-the-adr-number-as-its-unique-id'],
    tasks: [
      { task: 'What identifies an ADR uniquely: its number or its slug?', governing: '20201016-use-the-adr-slug-as-its-unique-id' },
      { task: 'Which library do we use for the search?', governing: '20201103-use-lunr-for-search' },
      { task: 'Should modules use default exports?', governing: '20200927-avoid-default-exports' },
    ],
  },
  {
    name: 'architecture-decision-record (examples)',
    mirror: 'joelparkerhenderson+architecture-decision-record',
    fixture: null,
    convention: 'one record per folder as index.md, `Status: Accepted` lines, `### Status` sections or none (licence CC BY-NC-SA: evaluated on the fetched copy, not committed)',
    paths: ['locales/en/examples'],
    retired: [],
    tasks: [
      { task: 'Which timestamp format should our systems use?', governing: 'timestamp-format/index' },
      { task: 'Where should we store secrets?', governing: 'secrets-storage/index' },
      { task: 'Should we build new web applications in Go?', governing: 'go-programming-language/index' },
    ],
  },
];

function workspaceFor(repo) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-eval-decisions-'));
  const gitDir = path.join(mirrors, repo.mirror, 'repo');
  if (!fixturesOnly && fs.existsSync(gitDir)) {
    const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', 'HEAD', ...repo.paths], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    if (repo.rename) {
      for (const p of listFiles(dir)) {
        const to = repo.rename(p);
        if (to === p) continue;
        fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
        fs.renameSync(path.join(dir, p), path.join(dir, to));
      }
    }
    return { dir, from: `fetched copy (${repo.mirror.replace('+', '/')})` };
  }
  const fixture = repo.fixture && path.join(root, 'test/fixtures/repos', repo.fixture);
  if (fixture && fs.existsSync(fixture)) {
    fs.cpSync(fixture, dir, { recursive: true });
    return { dir, from: `test/fixtures/repos/${repo.fixture}` };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return undefined;
}

function listFiles(dir, rel = '') {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? listFiles(dir, p) : [p];
  });
}

/** A record key (`0019-use-bash-go`, `timestamp-format/index`) matches a path ending in it (prefix of the file name). */
const matches = (source, key) => {
  const noExt = source.replace(/\.(md|markdown|mdx)$/i, '');
  const base = key.includes('/') ? noExt : path.posix.basename(noExt).replace(/^adr-/, '');
  return key.includes('/') ? noExt.endsWith('/' + key) : base.startsWith(key);
};
const rankOf = (reason) => /rank (\d+) of (\d+)/.exec(reason ?? '')?.slice(1, 3).join('/') ?? '—';
const RETIRED_WORDS = /superseded|deprecated|rejected|on hold/i;

function runTask(dir, repo, t) {
  const snapshot = loadSnapshot({ root: dir, reader: diskReader(dir), task: t.task, changes: false });
  const result = assemble(snapshot, {});
  const m = result.manifest;
  const find = (list, key) => list.find((d) => matches(d.source, key));
  const present = (key) => snapshot.documents.some((d) => matches(d.path, key));
  let governing = 'n/a';
  let rank = '—';
  if (t.governing) {
    if (!present(t.governing)) governing = 'absent';
    else {
      const sel = find(m.selected, t.governing);
      const idx = find(m.indexed, t.governing);
      const rej = find(m.rejected, t.governing);
      governing = sel ? 'selected' : idx ? 'indexed' : rej ? 'rejected' : 'missing';
      rank = rankOf((sel ?? idx ?? rej)?.reason);
    }
  }
  const indexText = result.blocks.find((b) => b.kind === 'index')?.text ?? '';
  const asCurrent = [];
  for (const key of repo.retired) {
    if (find(m.selected, key)) asCurrent.push(`${key} (loaded)`);
    const idx = find(m.indexed, key);
    if (idx) {
      const line = indexText.split('\n').find((l) => l.includes(idx.source)) ?? '';
      const entry = indexText.slice(indexText.indexOf(idx.source), indexText.indexOf(idx.source) + 600).split(/\n\s*-\s*path|\n<\//)[0];
      if (!RETIRED_WORDS.test(entry + line)) asCurrent.push(`${key} (indexed as current)`);
    }
  }
  let named = '—';
  if (t.asksAbout) {
    // The retired decision the task asks about: named in the request with its status (and successor when it has one)?
    const source = snapshot.documents.find((d) => matches(d.path, t.asksAbout))?.path;
    const sent = result.serialized;
    const mention = source ? sent.indexOf(source.replace(/"/g, '\\"')) : -1;
    const loaded = m.selected.some((d) => d.source === source);
    named = loaded ? 'loaded as current' : mention >= 0 && RETIRED_WORDS.test(sent.slice(Math.max(0, mention - 400), mention + 800)) ? 'named with status' : 'not named';
  }
  // Every reason about a document or decision, checked against the file: "mentions X", "applicable decision (accepted)".
  const reasons = { checked: 0, wrong: [] };
  if (checkRelevanceReason) {
    for (const d of [...m.selected, ...m.indexed, ...m.rejected]) {
      if (d.kind !== 'decision' && d.kind !== 'document') continue;
      let text;
      try {
        text = fs.readFileSync(path.join(dir, d.source), 'utf8');
      } catch {
        continue;
      }
      const r = checkRelevanceReason(d.reason, text);
      reasons.checked += r.checked;
      reasons.wrong.push(...r.wrong.map((w) => `${d.source}: ${w}`));
    }
  }
  return { governing, rank, asCurrent, named, reasons, selected: m.selected.filter((d) => d.kind === 'decision' || d.kind === 'document').map((d) => `${d.source} — ${d.reason}`) };
}

const rows = [['repository', 'task', 'governing decision', 'rank', 'retired sent as current', 'retired asked about', 'reasons true']];
let reasonsChecked = 0;
const reasonsWrong = [];
let tasks = 0;
let good = 0;
let skipped = 0;
let asCurrentTotal = 0;
let namedGood = 0;
let namedTotal = 0;
for (const repo of REPOS) {
  const ws = workspaceFor(repo);
  if (!ws) {
    skipped += repo.tasks.length;
    console.log(`${repo.name}: no fetched copy in ${mirrors} and no committed extract: ${repo.tasks.length} tasks skipped`);
    continue;
  }
  console.log(`${repo.name}: ${ws.from}; ${repo.convention}`);
  for (const t of repo.tasks) {
    const r = runTask(ws.dir, repo, t);
    if (r.governing === 'absent') {
      skipped++;
      continue;
    }
    tasks++;
    if (r.governing === 'selected' || r.governing === 'n/a') good++;
    asCurrentTotal += r.asCurrent.length;
    if (t.asksAbout) {
      namedTotal++;
      if (r.named === 'named with status') namedGood++;
    }
    reasonsChecked += r.reasons.checked;
    reasonsWrong.push(...r.reasons.wrong.map((w) => `${t.task} → ${w}`));
    rows.push([repo.name, t.task, t.governing ? `${r.governing} (${t.governing})` : 'none in force', r.rank, r.asCurrent.length ? r.asCurrent.join(', ') : 'none', t.asksAbout ? `${r.named} (${t.asksAbout})` : '—', checkRelevanceReason ? `${r.reasons.checked - r.reasons.wrong.length} / ${r.reasons.checked}` : 'n/a']);
    if (verbose) for (const s of r.selected) console.log(`    ${t.task} → ${s}`);
  }
  fs.rmSync(ws.dir, { recursive: true, force: true });
}
console.log('');
const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
for (const row of rows) console.log(`| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`);
if (reasonsWrong.length > 0) console.log(`\nuntrue reasons:\n  ${reasonsWrong.slice(0, verbose ? undefined : 15).join('\n  ')}${!verbose && reasonsWrong.length > 15 ? `\n  … and ${reasonsWrong.length - 15} more (--verbose)` : ''}`);
console.log(`\ndecisions: governing decision selected in ${good} of ${tasks} tasks; retired records sent as current: ${asCurrentTotal}; retired decisions asked about named with their status: ${namedGood} of ${namedTotal}; reasons true: ${checkRelevanceReason ? `${reasonsChecked - reasonsWrong.length} of ${reasonsChecked}` : 'not checked'}${skipped ? `; ${skipped} tasks skipped (records not available)` : ''}`);
