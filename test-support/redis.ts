import { randomBytes } from "node:crypto";
import { basename } from "node:path";
import { Redis } from "ioredis";

/** REDIS_URL when this run may use Redis; tests skip their Redis cases otherwise. */
export function redisTestUrl(): string | undefined {
  return process.env.REDIS_URL || undefined;
}

/** A key prefix of its own for one test file, e.g. `oikos_t_queue-contract_3fa9c2`. */
export function redisTestPrefix(fileUrl: string): string {
  const name = basename(new URL(fileUrl).pathname)
    .replace(/\.test\.ts$/, "")
    .replace(/[^\w-]/g, "_");
  return `oikos_t_${name}_${randomBytes(3).toString("hex")}`;
}

/** Deletes every key starting with `prefix`; returns how many were deleted. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    await redis.quit();
  }
  return deleted;
}

/** Keys still present under `prefix` (for asserting a test left nothing behind). */
export async function countRedisKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    let count = 0;
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      count += keys.length;
    } while (cursor !== "0");
    return count;
  } finally {
    await redis.quit();
  }
}
