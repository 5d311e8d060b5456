import type { z } from 'zod';

// zod 4 builds a fresh result for every parse: a stripped copy of each object plus a payload per key, about 1.4 KB of
// garbage for an 18-key record. For the few schemas every line of a gigabyte of logs goes through, `fastParser`
// derives from the schema itself a check that allocates nothing: a value that certainly conforms is returned as it
// is (unknown keys are left on it rather than stripped), anything else goes to zod, which decides and explains.

type Check = (value: unknown) => boolean;

interface Def {
  type: string;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  values?: unknown[];
  checks?: unknown[];
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A check for the schema, or `undefined` when it uses anything beyond plain shapes (refinements, transforms…). */
function compile(schema: z.ZodType): Check | undefined {
  const def = defOf(schema);
  if (def.checks && def.checks.length > 0) return undefined;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'unknown':
    case 'any':
      return () => true;
    case 'literal': {
      const values = def.values ?? [];
      return (v) => values.includes(v);
    }
    case 'optional': {
      const inner = def.innerType && compile(def.innerType);
      return inner && ((v) => v === undefined || inner(v));
    }
    case 'nullable': {
      const inner = def.innerType && compile(def.innerType);
      return inner && ((v) => v === null || inner(v));
    }
    case 'union': {
      const options = (def.options ?? []).map(compile);
      if (options.length === 0 || options.some((o) => o === undefined)) return undefined;
      const checks = options as Check[];
      return (v) => checks.some((check) => check(v));
    }
    case 'array': {
      if (!def.element) return undefined;
      if (defOf(def.element).type === 'unknown') return (v) => Array.isArray(v);
      const element = compile(def.element);
      return element && ((v) => Array.isArray(v) && v.every(element));
    }
    case 'object': {
      // strip (no catchall) and loose (unknown catchall) objects accept extra keys; strict ones are left to zod
      if (def.catchall && defOf(def.catchall).type !== 'unknown') return undefined;
      const fields: Array<[string, Check]> = [];
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const check = compile(field);
        if (!check) return undefined;
        fields.push([key, check]);
      }
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
        const record = v as Record<string, unknown>;
        for (const [key, check] of fields) if (!check(record[key])) return false;
        return true;
      };
    }
    default:
      return undefined;
  }
}

/** `schema.safeParse`, without zod's copy when the value conforms (see above); falls back to zod for the rest. */
export function fastParser<T extends z.ZodType>(schema: T): (value: unknown) => z.ZodSafeParseResult<z.output<T>> {
  const check = compile(schema);
  if (!check) return (value) => schema.safeParse(value);
  return (value) => (check(value) ? { success: true, data: value as z.output<T> } : schema.safeParse(value));
}
