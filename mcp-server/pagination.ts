import { z } from "zod";

/** Input fields every listing tool shares. `cursor` is opaque to the model: pass back `next_cursor`. */
export const pageInput = {
  cursor: z.string().optional().describe("next_cursor from the previous page; omit for the first page"),
  limit: z.number().int().min(1).max(200).optional().describe("page size, default 50"),
};

export interface Page {
  offset: number;
  limit: number;
}

export function pageFrom(
  input: { cursor?: string | undefined; limit?: number | undefined },
  defaultLimit = 50,
): Page {
  const limit = input.limit ?? defaultLimit;
  if (!input.cursor) return { offset: 0, limit };
  const offset = Number.parseInt(Buffer.from(input.cursor, "base64url").toString("utf8"), 10);
  return { offset: Number.isSafeInteger(offset) && offset >= 0 ? offset : 0, limit };
}

/** `next_cursor` for the page after `page`, or undefined when this was the last one. */
export function nextCursor(page: Page, hasMore: boolean): string | undefined {
  return hasMore ? Buffer.from(String(page.offset + page.limit), "utf8").toString("base64url") : undefined;
}
