#!/usr/bin/env node
// End-to-end UI test in a real VS Code (code-server 4.100.3) driven by headless Chromium:
// opens the example, opens the Context Control view, checks the trees, pins a selection, sees the
// status-bar number change, previews in the panel and sends with dry-run. Saves screenshots to
// test-results/screenshots/ and copies them into docs/screenshots/ when they changed (never in CI).
// Last line: `e2e: N passed, M failed`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, openWorkbench, startCodeServer } from '../../scripts/test-host/e2e.mjs';

const repo = path.resolve(import.meta.dirname, '../..');
const shots = path.join(repo, 'test-results', 'screenshots');
const docsShots = path.join(repo, 'docs', 'screenshots');
fs.mkdirSync(shots, { recursive: true });

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-e2e-'));
fs.cpSync(path.join(repo, 'examples', 'payment-incident'), workspace, { recursive: true });

const results = [];
let page;
let skipRest = false;
async function test(name, fn) {
  if (skipRest) {
    results.push({ name, ok: false, error: 'skipped: an earlier step could not run' });
    console.log(`  ✘ ${name} (skipped)`);
    return;
  }
  const started = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`  ✔ ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    results.push({ name, ok: false, error: e });
    console.log(`  ✘ ${name}\n${e?.stack ?? e}`);
    await page?.screenshot({ path: path.join(shots, `failure-${results.length}.png`) }).catch(() => {});
  }
}
function expect(cond, message) {
  if (!cond) throw new Error(message);
}

const statusItem = () => page.locator('.part.statusbar [id="context-control.context-control.contextControl.budget"]');
const statusText = async () => ((await statusItem().textContent()) ?? '').trim();
const BUDGET = /^[\d\s]+\/ 11\u202f000$/;

async function waitForStatus(pred, what, timeout = 60_000) {
  const start = Date.now();
  let last = '';
  while (Date.now() - start < timeout) {
    last = await statusText().catch(() => '');
    if (pred(last)) return last;
    await page.waitForTimeout(250);
  }
  throw new Error(`status bar never showed ${what}; last text: "${last}"`);
}

async function runCommand(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Expand the named views of the Context Control container and collapse the others. */
async function showViews(...names) {
  for (let attempt = 0; attempt < 4; attempt++) {
    let settled = true;
    for (const name of ['Request', 'Index', 'Manifest', 'Pinned']) {
      const header = page.locator('.part.sidebar .pane-header').filter({ hasText: new RegExp(`^${name}$`, 'i') }).first();
      const expanded = (await header.getAttribute('aria-expanded')) === 'true';
      if (expanded !== names.includes(name)) {
        settled = false;
        await header.click();
        await page.waitForTimeout(300);
      }
    }
    if (settled) return;
  }
  throw new Error(`could not show only the views ${names.join(', ')}`);
}

async function panelFrame() {
  const outer = page.frameLocator('iframe.webview.ready');
  const inner = outer.frameLocator('#active-frame');
  await inner.locator('#preview-btn').waitFor({ timeout: 30_000 });
  return inner;
}

/** Save a screenshot; copy it into docs/screenshots/ only when its bytes changed, and never in CI. */
async function shot(name, options = {}) {
  const file = path.join(shots, `${name}.png`);
  if (options.locator) await options.locator.screenshot({ path: file });
  else await page.screenshot({ path: file, clip: options.clip });
  const size = fs.statSync(file).size;
  expect(size < 300 * 1024, `${name}.png is ${size} bytes: over 300 KB`);
  const target = path.join(docsShots, `${name}.png`);
  if (!process.env.CI) {
    const same = fs.existsSync(target) && Buffer.compare(fs.readFileSync(target), fs.readFileSync(file)) === 0;
    if (!same && process.env.UPDATE_SCREENSHOTS) {
      fs.mkdirSync(docsShots, { recursive: true });
      fs.copyFileSync(file, target);
      console.log(`    screenshot updated: docs/screenshots/${name}.png`);
    }
  }
}

const server = await startCodeServer({
  workspace,
  extensionDevelopmentPath: repo,
  settings: { 'contextControl.taskFile': 'ticket.md', 'workbench.colorTheme': 'Default Dark Modern', 'editor.minimap.enabled': false },
});
let browser;
try {
  browser = await launchBrowser();
  page = await openWorkbench(browser, server.url, { viewport: { width: 1280, height: 800 } });

  await test('the extension activates and the status bar shows <final> / <max_input>', async () => {
    const text = await waitForStatus((t) => BUDGET.test(t), 'a budget out of 11 000');
    const final = Number(text.split('/')[0].replace(/\s/g, ''));
    expect(final > 0 && final <= 11000, `final ${final} out of range`);
  });
  if (results.some((r) => !r.ok)) skipRest = true;

  await test('the Context Control view shows the index and manifest trees', async () => {
    await page.locator('.activitybar [aria-label^="Context Control"]').first().click();
    // Widen the side bar by dragging its sash, as a person would.
    const box = await page.locator('.part.sidebar').boundingBox();
    await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 520, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await showViews('Index');
    const sidebar = page.locator('.part.sidebar');
    for (const label of ['Task signals', 'Instructions', 'Decisions', 'Documents', 'Logs and tool output']) {
      await sidebar.locator('.monaco-list-row').filter({ hasText: label }).first().waitFor({ timeout: 20_000 });
    }
    // The task signals group starts collapsed: open it to show what the task analysis understood.
    await sidebar.locator('.monaco-list-row').filter({ hasText: 'Task signals' }).first().click();
    await sidebar.locator('.monaco-list-row').filter({ hasText: 'paymentMethod' }).first().waitFor({ timeout: 10_000 });
    await sidebar.locator('.monaco-list-row').filter({ hasText: /relevance \d\.\d\d/ }).first().waitFor({ timeout: 10_000 });
    await shot('index', { locator: sidebar });
    await showViews('Manifest');
    for (const label of ['Selected', 'Rejected', 'Trimmed']) {
      await sidebar.locator('.monaco-list-row').filter({ hasText: label }).first().waitFor({ timeout: 20_000 });
    }
    const rejected = sidebar.locator('.monaco-list-row').filter({ hasText: 'superseded by ADR-012' });
    await rejected.first().waitFor({ timeout: 10_000 });
    await shot('manifest', { locator: sidebar });
  });

  let before = '';
  await test('pinning a selection changes the status-bar number at once', async () => {
    before = await statusText();
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('runbook.md');
    await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'runbook.md' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-lines').first().waitFor();
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 8; i++) await page.keyboard.press('Shift+ArrowDown');
    await runCommand('Pin Selection as Mandatory Block');
    const after = await waitForStatus((t) => BUDGET.test(t) && t !== before, 'a new number after pinning', 20_000);
    const n = (t) => Number(t.split('/')[0].replace(/\s/g, ''));
    expect(n(after) > n(before), `pinning did not raise the count: ${before} → ${after}`);
    await showViews('Pinned');
    await page.locator('.part.sidebar .monaco-list-row').filter({ hasText: /docs\/runbook\.md:1-\d+ · \d+ tok/ }).first().waitFor({ timeout: 10_000 });
    await shot('statusbar', { clip: { x: 640, y: 776, width: 640, height: 24 } });
    await shot('pinned', { clip: { x: 0, y: 0, width: 1280, height: 420 } });
  });

  await test('the panel previews the request: budget bar, ordered blocks, trace', async () => {
    await runCommand('Context Control: Open Panel');
    await showViews('Request');
    const panel = await panelFrame();
    await panel.locator('#preview-btn').click();
    await panel.locator('#preview-btn:not([disabled])').waitFor();
    await panel.locator('#budget-text').filter({ hasText: '/ 11\u202f000 tokens' }).waitFor({ timeout: 30_000 });
    const kinds = await panel.locator('ol.blocks summary .kind').allTextContents();
    expect(kinds[0] === 'system_instructions', `first block is ${kinds[0]}`);
    expect(kinds.at(-1) === 'current_task', `last block is ${kinds.at(-1)}`);
    expect(kinds.includes('pinned'), 'the pinned block is in the request');
    expect((await panel.locator('.bar .seg').count()) >= 3, 'the budget bar has zone segments');
    await panel.locator('details.signals summary').click();
    await panel.locator('details.signals li').filter({ hasText: 'Identifiers: paymentMethod' }).first().waitFor({ timeout: 10_000 });
    await panel.locator('ol.blocks summary').filter({ hasText: 'application.log' }).first().locator('.kind').click();
    await panel.locator('ol.blocks details[open] pre').filter({ hasText: 'paymentMethod is required' }).first().waitFor();
    await shot('panel-preview', { locator: page.locator('.part.sidebar') });
    await panel.locator('#tab-trace').click();
    await panel.locator('#trace-table').filter({ hasText: 'SELECTED' }).waitFor();
    expect((await panel.locator('details.trace-text pre.trace').textContent())?.includes('MODEL REQUEST BUDGET'), 'the plain-text trace is kept below the table');
    await shot('panel-trace', { locator: page.locator('.part.sidebar') });
    await panel.locator('#tab-session').click();
    await panel.locator('#pane-session').filter({ hasText: /events? \(e01…e\d+\) folded/ }).waitFor();
    await shot('panel-session', { locator: page.locator('.part.sidebar') });
    await panel.locator('#tab-blocks').click();
  });

  await test('Send with the dry-run provider writes the exact request and says so', async () => {
    const panel = await panelFrame();
    await panel.locator('#send-btn').click();
    await panel.locator('#answer').filter({ hasText: 'Dry run: nothing was sent.' }).waitFor({ timeout: 30_000 });
    const file = (await panel.locator('#answer-file').textContent()) ?? '';
    expect(/request\.json$/.test(file), `no link to the request file: ${file}`);
    const pane = (await panel.locator('#pane-answer').textContent()) ?? '';
    expect(pane.split(file).length === 2, `the path is printed once: ${pane}`);
    await shot('panel-send', { locator: page.locator('.part.sidebar') });
  });

  await test('Compare Policies… opens the Compare tab: variants side by side and the decisions diff', async () => {
    await runCommand('Context Control: Compare Policies…');
    const pick = page.locator('.quick-input-widget');
    await pick.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'lean.yaml' }).first().waitFor();
    // The current policy is preselected; tick the lean one too, then accept.
    // (a click on a row of a multi-select pick toggles its check box)
    await pick.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'lean.yaml' }).first().click();
    await pick.locator('.quick-input-count').filter({ hasText: '2 Selected' }).waitFor();
    await pick.locator('.monaco-button').filter({ hasText: 'OK' }).first().click();
    const panel = await panelFrame();
    await panel.locator('#compare-diff').waitFor({ timeout: 60_000 });
    const names = await panel.locator('#compare-variants .variant h3').allTextContents();
    expect(names.join(',') === 'policy,lean', `variants: ${names.join(',')}`);
    const row = panel.locator('#compare-diff tbody tr').filter({ hasText: 'application.log' });
    expect((await row.count()) === 1, 'application.log is in the diff');
    expect(((await row.textContent()) ?? '').includes('Other size'), 'the change says its kind in words');
    expect((await panel.locator('.check-fail').count()) >= 1, 'the lean variant loses an evidence check');
    await panel.locator('#compare-diff').scrollIntoViewIfNeeded();
    await shot('panel-compare', { locator: page.locator('.part.sidebar') });
  });

  await test('context checks show in the Test Explorer and pass', async () => {
    await runCommand('Test: Run All Tests');
    await runCommand('View: Show Testing');
    const item = page.locator('.part.sidebar .monaco-list-row').filter({ hasText: 'payment incident keeps its evidence' });
    await page.locator('.part.sidebar .monaco-list-row').filter({ hasText: 'checks.yaml' }).first().waitFor({ timeout: 30_000 });
    if ((await item.count()) === 0) await page.locator('.part.sidebar .monaco-list-row').filter({ hasText: 'checks.yaml' }).first().click();
    await item.first().waitFor({ timeout: 30_000 });
    await item.first().locator('.codicon-testing-passed-icon').waitFor({ timeout: 60_000 });
    await shot('test-explorer', { locator: page.locator('.part.sidebar') });
  });

  // Further suites: test/e2e/suites/*.mjs, in name order, each `export default async function (h)` with the harness.
  const suites = path.join(import.meta.dirname, 'suites');
  /** Show the Context Control container; its activity-bar icon toggles the side bar, so click only when it is not showing. */
  const showContainer = async () => {
    const header = page.locator('.part.sidebar .pane-header').filter({ hasText: /^(Request|Index|Manifest|Pinned)$/i }).first();
    if (!(await header.isVisible().catch(() => false))) await page.locator('.activitybar [aria-label^="Context Control"]').first().click();
    await header.waitFor({ timeout: 10_000 });
  };
  const harness = { page, test, expect, runCommand, showViews, showContainer, panelFrame, shot, statusText, waitForStatus, workspace, repo };
  for (const file of fs.existsSync(suites) ? fs.readdirSync(suites).filter((f) => f.endsWith('.mjs')).sort() : []) {
    const suite = await import(path.join(suites, file));
    // A suite starts from a quiet workbench: no menu or quick pick left open by the one before.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await suite.default(harness);
  }
} catch (e) {
  console.log(`  ✘ harness: ${e?.stack ?? e}`);
  results.push({ name: 'harness', ok: false, error: e });
} finally {
  await browser?.close().catch(() => {});
  await server.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
