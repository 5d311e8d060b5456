// VS Code's ObjectMutationLog (`chatSessions/<id>.jsonl`, VS Code ≥ 1.109): entries replayed into one object.

type Mutation = { ok: true; state: unknown } | { ok: false; reason: string };

/**
 * VS Code's ObjectMutationLog: kind 0 = whole value, 1 = set at path k, 2 = push v onto the array at k (after cutting
 * it to length i when i is given), 3 = delete at k. Mirrors objectMutationLog.ts `read`.
 */
export function applyMutation(state: unknown, entry: Record<string, unknown>): Mutation {
  const kind = entry.kind;
  if (kind === 0) return { ok: true, state: entry.v };
  if (state === undefined) return { ok: false, reason: 'mutation before the initial value' };
  const path = Array.isArray(entry.k) ? entry.k : undefined;
  if (!path || !path.every((p) => typeof p === 'string' || typeof p === 'number'))
    return { ok: false, reason: 'mutation without a path' };
  if (path.length === 0)
    return kind === 1 ? { ok: true, state: entry.v } : { ok: false, reason: 'mutation at the root' };
  let parent: unknown = state;
  for (const key of path.slice(0, -1)) {
    parent = isContainer(parent) ? (parent as Record<string | number, unknown>)[key] : undefined;
  }
  if (!isContainer(parent)) return { ok: false, reason: `no object at ${path.slice(0, -1).join('.')}` };
  const target = parent as Record<string | number, unknown>;
  const last = path[path.length - 1];
  switch (kind) {
    case 1:
      target[last] = entry.v;
      return { ok: true, state };
    case 2: {
      const arr = Array.isArray(target[last]) ? (target[last] as unknown[]) : [];
      if (typeof entry.i === 'number') arr.length = Math.min(arr.length, entry.i);
      if (Array.isArray(entry.v)) arr.push(...(entry.v as unknown[]));
      target[last] = arr;
      return { ok: true, state };
    }
    case 3:
      if (Array.isArray(target)) target[last as number] = undefined;
      else delete target[last];
      return { ok: true, state };
    default:
      return { ok: false, reason: `unknown mutation kind ${String(kind)}` };
  }
}

function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}
