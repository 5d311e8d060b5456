import { z } from 'zod';
import { LessonKind } from '../playbook/delta';

// What models are asked to return. Everything is validated; provenance is resolved by our code, not trusted.

export const ReflectionAnswer = z.object({
  lessons: z
    .array(
      z.object({
        section: z.string().min(1),
        content: z.string().min(8).max(600),
        kind: LessonKind,
        evidence_steps: z.array(z.number().int().nonnegative()).min(1),
        scope: z.string().optional(),
      }),
    )
    .max(12),
  bullet_tags: z
    .array(z.object({ id: z.string(), tag: z.enum(['helpful', 'harmful', 'neutral', 'violated']), reason: z.string() }))
    .default([]),
});
export type ReflectionAnswer = z.infer<typeof ReflectionAnswer>;

const sources = z.array(z.string()).min(1);
export const AggregationAnswer = z.object({
  operations: z.array(
    z.discriminatedUnion('type', [
      z.object({
        type: z.literal('ADD'),
        section: z.string().min(1),
        content: z.string().min(8).max(600),
        kind: LessonKind.optional(),
        scope: z.string().optional(),
        sources,
      }),
      z.object({ type: z.literal('UPDATE'), id: z.string(), content: z.string().min(8).max(600), sources }),
      z.object({
        type: z.literal('MERGE'),
        ids: z.array(z.string()).min(2),
        content: z.string().min(8).max(600),
        sources,
      }),
      z.object({ type: z.literal('REMOVE'), id: z.string(), reason: z.string(), sources }),
    ]),
  ),
  /** Items left out on purpose, with the reason: what is neither cited nor here was dropped (see learn/overload.ts). */
  rejected: z.array(z.object({ sources, reason: z.string().min(3).max(300) })).default([]),
});
export type AggregationAnswer = z.infer<typeof AggregationAnswer>;
