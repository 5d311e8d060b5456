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
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  checks?: unknown[];
  items?: z.ZodType[];
  rest?: z.ZodType | null;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

interface CheckDef {
  check: string;
  format?: string;
  value?: number;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
}

/** The schema's refinements as one test; `undefined` when one of them is not a plain bound. */
function compileRefinements(def: Def): Check | undefined {
  const tests: Check[] = [];
  for (const check of def.checks ?? []) {
    const c = (check as { _zod: { def: CheckDef } })._zod.def;
    if (c.check === 'number_format' && c.format === 'safeint') tests.push((v) => Number.isSafeInteger(v));
    else if (c.check === 'greater_than' && typeof c.value === 'number')
      tests.push(c.inclusive ? (v) => (v as number) >= c.value! : (v) => (v as number) > c.value!);
    else if (c.check === 'less_than' && typeof c.value === 'number')
      tests.push(c.inclusive ? (v) => (v as number) <= c.value! : (v) => (v as number) < c.value!);
    else if (c.check === 'min_length' && typeof c.minimum === 'number')
      tests.push((v) => (v as string).length >= c.minimum!);
    else if (c.check === 'max_length' && typeof c.maximum === 'number')
      tests.push((v) => (v as string).length <= c.maximum!);
    else return undefined;
  }
  return tests.length === 0 ? () => true : (v) => tests.every((test) => test(v));
}

/** A check for the schema, or `undefined` when it uses anything beyond plain shapes and bounds (transforms…). */
function compile(schema: z.ZodType): Check | undefined {
  const def = defOf(schema);
  const shape = compileShape(def);
  if (!shape || !def.checks || def.checks.length === 0) return shape;
  const refined = (def.type === 'number' || def.type === 'string') && compileRefinements(def);
  return refined ? (v) => shape(v) && refined(v) : undefined;
}

function compileShape(def: Def): Check | undefined {
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'enum': {
      // string enums only: a numeric (TypeScript) enum's reverse mappings are zod's to sort out
      const values = Object.values(def.entries ?? {});
      if (values.some((value) => typeof value !== 'string')) return undefined;
      return (v) => values.includes(v);
    }
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
    case 'tuple': {
      // fixed length only; a rest element is left to zod
      if (def.rest) return undefined;
      const items = (def.items ?? []).map(compile);
      if (items.some((item) => item === undefined)) return undefined;
      const checks = items as Check[];
      return (v) => Array.isArray(v) && v.length === checks.length && checks.every((check, i) => check(v[i]));
    }
    case 'record': {
      // keys of parsed JSON are strings: only a plain string key type is checked here
      if (!def.keyType || !def.valueType || defOf(def.keyType).type !== 'string' || defOf(def.keyType).checks?.length)
        return undefined;
      const value = compile(def.valueType);
      return (
        value &&
        ((v) => {
          if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
          for (const key in v)
            if (Object.prototype.hasOwnProperty.call(v, key) && !value((v as Record<string, unknown>)[key]))
              return false;
          return true;
        })
      );
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
