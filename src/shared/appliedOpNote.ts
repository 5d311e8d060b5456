/**
 * What became of one change of an apply node, in the run and then in review: "applied in the run · rejected in
 * review" (a rule the run added and the user later rejected is no contradiction), or why the run skipped it.
 */
export function appliedOpNote(op: {
  status: 'applied' | 'skipped';
  reason?: string;
  review?: 'pending' | 'accepted' | 'rejected';
  flags?: readonly string[];
}): string {
  if (op.status === 'skipped') return `skipped in the run: ${op.reason ?? ''}`;
  const review = op.review === undefined ? [] : [op.review === 'pending' ? 'review pending' : `${op.review} in review`];
  const held = op.flags ? [`held back (${op.flags.join(', ')})`] : [];
  return ['applied in the run', ...review, ...held].join(' · ');
}
