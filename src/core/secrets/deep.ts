/**
 * A copy of a JSON-like value with every string, object keys included, passed through `redact` (objects and arrays
 * copied only when changed).
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = redactDeep(item, redact);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    return (copy ?? value) as T;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value);
    let changed = false;
    const next = entries.map(([key, item]): [string, unknown] => {
      // a key is text too: a tool's JSON input or output can hold a token as a key (`{"ghp_…": true}`)
      const redactedKey = redact(key);
      const redactedItem = redactDeep(item, redact);
      if (redactedKey !== key || redactedItem !== item) changed = true;
      return [redactedKey, redactedItem];
    });
    if (!changed) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of next) {
      // two keys redacted alike are both kept
      let name = key;
      for (let n = 2; Object.hasOwn(copy, name); n++) name = `${key}#${n}`;
      copy[name] = item;
    }
    return copy as T;
  }
  return value;
}
