import type { RunNodeView, RunView } from '../../shared/protocol';

/** The nodes whose text, session or rule ids hold `query` (case-insensitive), in the run's order. */
export function searchNodes(run: RunView, query: string): string[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return run.nodes
    .filter((node) => nodeTexts(node).some((text) => text.toLowerCase().includes(needle)))
    .map((n) => n.id);
}

function nodeTexts(node: RunNodeView): string[] {
  const texts = [node.label, node.summary];
  if (node.traceId) texts.push(node.traceId);
  const detail = node.detail;
  switch (detail?.kind) {
    case 'session':
      texts.push(detail.traceId, detail.agent);
      break;
    case 'lessons':
      for (const lesson of detail.lessons) texts.push(lesson.content, lesson.section);
      break;
    case 'members':
      texts.push(...detail.traceIds);
      break;
    case 'operations':
    case 'applied':
      for (const op of detail.operations) texts.push(op.target, op.content ?? '');
      break;
  }
  return texts;
}
