import type { MatrixApi } from "./matrix-api.ts";
import type { RoomEvent } from "./sync-schema.ts";

const PAGE_SIZE = 100;
/** At most this many pages (10 000 events) per gap: a longer outage is not replayed as requests. */
const MAX_PAGES = 100;

/**
 * The events a `limited` sync timeline left out: pages back from the timeline's prev_batch until
 * the last event the bot saw in that room. Oldest first. `complete` is false when the page limit
 * was reached before that event (the oldest part of the gap stays unseen).
 */
export async function fetchTimelineGap(
  api: MatrixApi,
  room: string,
  prevBatch: string,
  lastSeen: string,
): Promise<{ events: RoomEvent[]; complete: boolean }> {
  const newestFirst: RoomEvent[] = [];
  let from = prevBatch;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { chunk, end } = await api.messagesBefore(room, from, PAGE_SIZE);
    for (const event of chunk) {
      if (event.event_id === lastSeen) return { events: newestFirst.reverse(), complete: true };
      newestFirst.push(event);
    }
    if (!end || chunk.length === 0) return { events: newestFirst.reverse(), complete: true };
    from = end;
  }
  return { events: newestFirst.reverse(), complete: false };
}
