import type { Pin } from '../../core/sources/snapshot';
import type { Node } from './tree';

/** The Pinned view: every pinned block, with an inline unpin action (contextValue `pin`). */
export function pinnedNodes(pins: Pin[], tokensOf: (pin: Pin) => number | undefined): Node[] {
  return pins.map((p) => {
    const where = p.startLine ? `${p.source}:${p.startLine}-${p.endLine ?? p.startLine}` : p.source;
    const t = tokensOf(p);
    return {
      id: `pin:${p.id}`,
      label: p.label || where,
      description: `${where}${t !== undefined ? ` · ${t} tok` : ''}`,
      icon: p.startLine ? 'pinned' : 'file',
      contextValue: 'pin',
      tooltip: `**Pinned (mandatory):** \`${where}\`\n\n\`\`\`\n${p.text.slice(0, 800)}\n\`\`\``,
      open: { source: p.source, line: p.startLine },
    };
  });
}
