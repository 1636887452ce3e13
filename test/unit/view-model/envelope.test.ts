import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelopeParts, orderedZones } from '../../../src/view-model/envelope';

describe('panel envelope', () => {
  it('zones, overhead, free room, output reserve and margin add up to the window exactly', () => {
    const budget = { window: 14000, output_reserve: 2000, margin: 1000, max_input: 11000, final: 4361 };
    const zones = { tool_results: 695, protected: 1210, documents: 0, session: 976, index: 326 };
    const { parts, over } = envelopeParts(budget, zones);
    assert.deepEqual(parts, [
      { part: 'protected', tokens: 1210 },
      { part: 'session', tokens: 976 },
      { part: 'index', tokens: 326 },
      { part: 'tool_results', tokens: 695 },
      { part: 'overhead', tokens: 1154 },
      { part: 'free', tokens: 6639 },
      { part: 'output_reserve', tokens: 2000 },
      { part: 'margin', tokens: 1000 },
    ]);
    assert.equal(parts.reduce((s, p) => s + p.tokens, 0), 14000);
    assert.equal(over, 0);
  });

  it('takes overhead and free from the manifest when the chain reports them', () => {
    const { parts } = envelopeParts({ window: 100, output_reserve: 10, margin: 5, max_input: 85, final: 60, overhead: 7, free: 25 }, { protected: 53 });
    assert.deepEqual(parts.map((p) => `${p.part}=${p.tokens}`), ['protected=53', 'overhead=7', 'free=25', 'output_reserve=10', 'margin=5']);
  });

  it('a refused request has no free room and reports by how much it is over', () => {
    const { parts, over } = envelopeParts({ window: 4000, output_reserve: 1000, margin: 500, max_input: 2500, final: 7646, overhead: 0 }, { protected: 7646 });
    assert.deepEqual(parts.map((p) => p.part), ['protected', 'output_reserve', 'margin']);
    assert.equal(over, 5146);
    assert.equal(parts.reduce((s, p) => s + p.tokens, 0), 4000 + over);
  });

  it('orders unknown zones after the known ones, by name, and drops empty ones', () => {
    assert.deepEqual(orderedZones([{ zone: 'zeta', tokens: 1 }, { zone: 'alpha', tokens: 2 }, { zone: 'index', tokens: 3 }, { zone: 'session', tokens: 0 }]).map((z) => z.part), ['index', 'alpha', 'zeta']);
  });
});
