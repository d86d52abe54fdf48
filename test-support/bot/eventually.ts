/**
 * Polls `check` until it returns a value other than undefined/false, or fails with `what` after
 * `withinMs` (a generous bound for work that happens over real sockets, not a speed assertion).
 */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  withinMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for: ${what}${last ? ` (last error: ${String(last)})` : ""}`);
}
