// Helpers of the panel's browser suite (test/e2e/suites/panel.mjs): workspace settings, the side bar's width, and
/* global document, getComputedStyle -- these run inside the webview through evaluate() */
// the WCAG contrast of the panel's text against the background it is drawn on.
import fs from 'node:fs';
import path from 'node:path';

/** Merge settings into the workspace's .vscode/settings.json (the workbench applies them live). */
export async function setWorkspaceSettings(workspace, settings) {
  const file = path.join(workspace, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8') || '{}') : {};
  fs.writeFileSync(file, JSON.stringify({ ...current, ...settings }, null, 2));
}

/** Wait until the status bar's budget has not changed for 1.5 s: the debounced re-assemblies are over. */
export async function settle(page, timeout = 20_000) {
  const item = page.locator('.part.statusbar [id="context-control.context-control.contextControl.budget"]');
  const start = Date.now();
  let last = await item.textContent();
  let since = Date.now();
  while (Date.now() - start < timeout && Date.now() - since < 1500) {
    await page.waitForTimeout(250);
    const now = await item.textContent();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

/** Drag the side bar's sash until the side bar is `width` px wide, as a person would. */
export async function sidebarWidth(page, width) {
  const box = await page.locator('.part.sidebar').boundingBox();
  await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(500);
}

/**
 * The contrast ratio (WCAG 2) of each selector's first element: its text colour against the first opaque
 * background among it and its ancestors, else the side bar's background that the webview is drawn on.
 */
export async function contrastOf(frame, selectors) {
  const out = {};
  for (const sel of selectors) {
    out[sel] = await frame.locator(sel).first().evaluate((el) => {
      const parse = (c) => {
        const m = /rgba?\(([^)]+)\)/.exec(c);
        if (!m) return undefined;
        const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
        return { r, g, b, a };
      };
      const lum = ({ r, g, b }) => {
        const ch = (v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
      };
      let bg;
      for (let n = el; n && !bg; n = n.parentElement) {
        const c = parse(getComputedStyle(n).backgroundColor);
        if (c && c.a > 0.5) bg = c;
      }
      if (!bg) {
        const probe = document.createElement('span');
        probe.style.color = 'var(--vscode-sideBar-background)';
        document.body.append(probe);
        bg = parse(getComputedStyle(probe).color);
        probe.remove();
      }
      const fg = parse(getComputedStyle(el).color);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      return (hi + 0.05) / (lo + 0.05);
    });
  }
  return out;
}
