import type { Pin } from '../../core/sources/snapshot';
import { tokens, type Node } from './tree';

/** The Pinned view: every pinned block, with an inline unpin action (contextValue `pin`). */
/** `tokensOf` gives the counted figure of the last request; `estimate` the figure before it (shown with `~`). */
export function pinnedNodes(pins: Pin[], tokensOf: (pin: Pin) => number | undefined, estimate?: (pin: Pin) => number): Node[] {
  return pins.map((p) => {
    const where = p.startLine ? `${p.source}:${p.startLine}-${p.endLine ?? p.startLine}` : p.source;
    const counted = tokensOf(p);
    const t = counted !== undefined ? tokens(counted) : estimate ? tokens(estimate(p), true) : undefined;
    return {
      id: `pin:${p.id}`,
      label: p.label || where,
      description: `${where}${t !== undefined ? ` · ${t}` : ''}`,
      icon: p.startLine ? 'pinned' : 'file',
      contextValue: 'pin',
      tooltip: `**Pinned (mandatory):** \`${where}\`\n\n\`\`\`\n${p.text.slice(0, 800)}\n\`\`\``,
      open: { source: p.source, line: p.startLine },
    };
  });
}
