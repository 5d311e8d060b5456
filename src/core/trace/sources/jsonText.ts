/** What a value nested too deep to serialize is kept as: the rest of its session is read on. */
export const TOO_DEEP = '[nested too deeply to keep]';

/**
 * `JSON.stringify` of a value read from a session, which can nest arbitrarily deep: JSON.parse takes 100,000 levels
 * where JSON.stringify runs out of stack at a few thousand, and one such tool input must not cost its session.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof RangeError) return TOO_DEEP;
    throw error;
  }
}
