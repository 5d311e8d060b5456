import { z } from 'zod';
import { Trace } from './model';

/**
 * What the lists need of a trace (the Sessions view, the background check, the status bar): kept in the pack index
 * beside its byte range, so they read indexes, never trace bodies.
 */
export const TraceSummary = Trace.pick({
  id: true,
  agent: true,
  agentVersion: true,
  cwd: true,
  title: true,
  startedAt: true,
  endedAt: true,
  parentId: true,
  contributor: true,
  signedBy: true,
}).extend({
  steps: z.number().int().nonnegative(),
  toolErrors: z.number().int().nonnegative(),
  userCorrections: z.number().int().nonnegative(),
  redactions: z.number().int().nonnegative(),
  /** Size of the session's source file. */
  bytes: z.number().int().nonnegative(),
  warnings: z.number().int().nonnegative(),
});
export type TraceSummary = z.infer<typeof TraceSummary>;

export function summarize(trace: Trace): TraceSummary {
  const summary: TraceSummary = {
    id: trace.id,
    agent: trace.agent,
    steps: trace.steps.length,
    toolErrors: trace.outcome.toolErrors,
    userCorrections: trace.outcome.userCorrections,
    redactions: trace.redactions,
    bytes: trace.source.bytes,
    warnings: trace.warnings.length,
  };
  // absent fields stay absent (not `undefined`), so a summary read back from JSON equals the one written
  if (trace.agentVersion !== undefined) summary.agentVersion = trace.agentVersion;
  if (trace.cwd !== undefined) summary.cwd = trace.cwd;
  if (trace.title !== undefined) summary.title = trace.title;
  if (trace.startedAt !== undefined) summary.startedAt = trace.startedAt;
  if (trace.endedAt !== undefined) summary.endedAt = trace.endedAt;
  if (trace.parentId !== undefined) summary.parentId = trace.parentId;
  if (trace.contributor !== undefined) summary.contributor = trace.contributor;
  if (trace.signedBy !== undefined) summary.signedBy = trace.signedBy;
  return summary;
}
