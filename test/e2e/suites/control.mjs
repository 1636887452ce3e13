// The user's controls: the Index tree's context menu and inline actions Include / Exclude / Clear, which
// write .context/overrides.json (the file ctxctl reads too) and change the manifest; screenshot of the open menu.
import fs from 'node:fs';
import path from 'node:path';

export default async function control(h) {
  const { page, test, expect, showViews, shot, workspace } = h;
  const overrides = path.join(workspace, '.context', 'overrides.json');
  const read = () => (fs.existsSync(overrides) ? JSON.parse(fs.readFileSync(overrides, 'utf8')) : undefined);
  const sidebar = () => page.locator('.part.sidebar');
  const row = (text) => sidebar().locator('.monaco-list-row').filter({ hasText: text }).first();
  const until = async (what, probe, timeout = 20_000) => {
    const start = Date.now();
    while (Date.now() - start < timeout) {
      if (probe()) return;
      await page.waitForTimeout(200);
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  /** The row shows the inline action of its new state, and the watcher's follow-up run has re-rendered the tree. */
  const settled = async (inline) => {
    await row('Payment service runbook').locator(`.actions [aria-label="${inline}"]`).first().waitFor({ state: 'attached', timeout: 20_000 });
    await page.waitForTimeout(1500);
  };
  const menuItem = (label) => page.locator('.context-view .monaco-menu .action-item').filter({ hasText: label }).first();
  /** Choose a menu item of the runbook row until the file says so: a re-render of the tree can close the menu under the click. */
  const viaMenu = async (label, what, probe) => {
    for (let attempt = 1; ; attempt++) {
      await menuItem(label).click({ timeout: 10_000 }).catch(() => {});
      try {
        return await until(what, probe, 8_000);
      } catch (e) {
        await page.keyboard.press('Escape');
        if (attempt === 3) throw e;
        // A re-render of the tree can close the menu under the click: the row's inline action runs the same command.
        await row('Payment service runbook').hover();
        await row('Payment service runbook').locator(`.actions [aria-label="${label}"]`).first().click({ timeout: 10_000 }).catch(() => {});
        try {
          return await until(what, probe, 8_000);
        } catch {
          await row('Payment service runbook').click({ button: 'right' });
        }
      }
    }
  };

  await test('the Index item context menu offers Include, Exclude, Pin, Open and Copy; Include writes the shared overrides file', async () => {
    await h.showContainer();
    await showViews('Index');
    const item = row('Payment service runbook');
    await item.waitFor({ timeout: 20_000 });
    await item.click({ button: 'right' });
    for (const label of ['Include in Request', 'Exclude from Request', 'Pin', 'Open', 'Copy']) await menuItem(label).waitFor({ timeout: 10_000 });
    const box = await page.locator('.context-view .monaco-menu').first().boundingBox();
    const itemBox = await item.boundingBox();
    expect(box && itemBox, 'the menu and the item are on screen');
    const x = Math.max(0, Math.min(itemBox.x, box.x) - 8);
    const y = Math.max(0, Math.min(itemBox.y, box.y) - 8);
    await shot('overrides-menu', { clip: { x, y, width: Math.max(itemBox.x + itemBox.width, box.x + box.width) - x + 8, height: Math.max(itemBox.y + itemBox.height, box.y + box.height) - y + 8 } });
    await viaMenu('Include in Request', 'the include in .context/overrides.json', () => read()?.include?.includes('docs/runbook.md'));
    await settled('Clear Include/Exclude');
  });

  await test('Exclude from the context menu moves it to exclude, and the manifest says "excluded by you"; Clear removes the file', async () => {
    await row('Payment service runbook').click({ button: 'right' });
    await menuItem('Clear Include/Exclude').waitFor({ timeout: 10_000 });
    expect((await menuItem('Include in Request').count()) === 0, 'an included item does not offer Include again');
    await viaMenu('Exclude from Request', 'the exclude in .context/overrides.json', () => read()?.exclude?.includes('docs/runbook.md') && !read()?.include?.includes('docs/runbook.md'));
    await row('Payment service runbook').filter({ hasText: 'excluded by you' }).waitFor({ timeout: 20_000 });
    await settled('Include in Request');
    // Clear through the row's inline action (the context menu's Include and Exclude are driven above).
    for (let attempt = 1; !(await until('the overrides file to go', () => !fs.existsSync(overrides), attempt === 1 ? 0 : 8_000).then(() => true, () => false)); attempt++) {
      if (attempt > 3) throw new Error('Clear Include/Exclude did not remove .context/overrides.json');
      await row('Payment service runbook').hover();
      await row('Payment service runbook').locator('.actions [aria-label="Clear Include/Exclude"]').first().click({ timeout: 10_000 }).catch(() => {});
    }
  });
}
