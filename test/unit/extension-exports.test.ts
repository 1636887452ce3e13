import assert from 'node:assert/strict';
import Module from 'node:module';
import { describe, it } from 'node:test';

/** The `vscode` module as the extension host gives it, reduced to the one enum exportsFor reads (its real values). */
const ExtensionMode = { Production: 1, Development: 2, Test: 3 } as const;

function loadExportsFor(): typeof import('../../src/vscode/test-api').exportsFor {
  const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  mod._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? { ExtensionMode } : load.call(this, request, ...rest);
  };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('../../src/vscode/test-api') as typeof import('../../src/vscode/test-api')).exportsFor;
  } finally {
    mod._load = load;
  }
}

describe('the extension exports nothing that changes its behaviour', () => {
  const exportsFor = loadExportsFor();
  const internals = { chat: { setTrust: () => undefined } };

  it('an extension started as users run it (Production) or from a development host exports undefined, and the internals are never built', () => {
    let built = 0;
    const make = () => (built++, internals);
    assert.equal(exportsFor(ExtensionMode.Production, make), undefined);
    assert.equal(exportsFor(ExtensionMode.Development, make), undefined);
    assert.equal(built, 0);
  });

  it('only the extension test host (ExtensionMode.Test) gets the internals', () => {
    assert.equal(exportsFor(ExtensionMode.Test, () => internals), internals);
  });
});
