/** Runs `run` with OPENAI_API_KEY set to `key` (as the CLI reads it), restoring the environment after. */
export async function withApiKey<T>(key: string, run: () => Promise<T>): Promise<T> {
  const saved = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = key;
  try {
    return await run();
  } finally {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
  }
}
