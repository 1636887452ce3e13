#!/usr/bin/env node
// Opens the workbench with an extension in development mode and saves a screenshot: the smallest
// example of the e2e helpers in scripts/test-host/e2e.mjs, and a quick way to look at the UI.
// Usage: node test/e2e/screenshot.mjs [--extension <dir>] [--workspace <dir>] [--out <png>]
//          [--wait-for <text shown in the status bar>]
// Defaults: this repository as the extension, an empty temp folder, /tmp/workbench.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, openWorkbench, startCodeServer } from '../../scripts/test-host/e2e.mjs';

const repo = path.resolve(import.meta.dirname, '../..');
const { values: opt } = parseArgs({
  options: {
    extension: { type: 'string', default: repo },
    workspace: { type: 'string' },
    out: { type: 'string', default: '/tmp/workbench.png' },
    'wait-for': { type: 'string' },
  },
});
const workspace = path.resolve(opt.workspace ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cc-e2e-ws-')));

const server = await startCodeServer({ workspace, extensionDevelopmentPath: path.resolve(opt.extension) });
let browser;
try {
  browser = await launchBrowser();
  const page = await openWorkbench(browser, server.url);
  if (opt['wait-for']) {
    await page.locator('.part.statusbar').getByText(opt['wait-for']).first().waitFor({ timeout: 30_000 });
  } else {
    await page.waitForTimeout(3000); // let extensions activate
  }
  await page.screenshot({ path: opt.out });
  console.log(`screenshot: ${opt.out}`);
} finally {
  await browser?.close();
  await server.stop();
}
