import type { ChatRequest, ScriptedReply } from './modelServer';

/**
 * A deterministic stand-in for a model (a simulation, labelled as such): reflection prompts get one lesson per
 * failing command of the condensed session; aggregation prompts get one ADD per distinct item, citing every label
 * with the same text. Enough to drive the real client, prompts and provenance code end to end.
 */
export function simulatedModel(request: ChatRequest): ScriptedReply {
  const prompt = request.messages.map((m) => m.content).join('\n');
  if (/You review one coding-agent session/.test(prompt)) {
    const lessons: unknown[] = [];
    const lines = prompt.split('\n');
    lines.forEach((line, i) => {
      const call = /^#(\d+) TOOL \w+: \$ (.+)$/.exec(line);
      const result = /^#(\d+) RESULT FAILED/.exec(lines[i + 1] ?? '');
      if (call && result)
        lessons.push({
          section: 'Pitfalls',
          content: `Check \`${call[2]}\` carefully: it failed in this session.`,
          kind: 'pitfall',
          evidence_steps: [Number(call[1]), Number(result[1])],
        });
    });
    return { content: JSON.stringify({ lessons, bullet_tags: [] }) };
  }
  const items = [...prompt.matchAll(/^((?:L|D)[\d.]+) \(\d+ session\(s\)\): (.*)$/gm)].map((m) => ({
    label: m[1],
    text: m[2].replace(/^\[[^\]]*\] /, '').replace(/^ADD to "[^"]*": /, ''),
  }));
  const byText = new Map<string, string[]>();
  for (const item of items) byText.set(item.text, [...(byText.get(item.text) ?? []), item.label]);
  const operations = [...byText].map(([content, sources]) => ({
    type: 'ADD',
    section: 'Pitfalls',
    content,
    kind: 'pitfall',
    sources,
  }));
  return { content: JSON.stringify({ operations }) };
}
