import { after, before } from "node:test";

/**
 * A value for the enclosing `describe`: made by `setUp` in `before`, released by `tearDown` in
 * `after`. The returned getter throws when read before the suite started.
 */
export function perSuite<T>(setUp: () => Promise<T>, tearDown: (value: T) => Promise<void>): () => T {
  let value: T | undefined;
  before(async () => {
    value = await setUp();
  });
  after(async () => {
    if (value !== undefined) await tearDown(value);
  });
  return () => {
    if (value === undefined) throw new Error("perSuite: read before the suite's before hook ran");
    return value;
  };
}

/** Runs `step` on a resource just acquired; releases it when the step throws, so a failed setup leaks nothing. */
export async function releasingOnFailure<R, T>(
  resource: R,
  release: (resource: R) => Promise<void>,
  step: (resource: R) => Promise<T>,
): Promise<T> {
  try {
    return await step(resource);
  } catch (error) {
    await release(resource);
    throw error;
  }
}
