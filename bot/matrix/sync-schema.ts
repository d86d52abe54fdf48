import { z } from "zod";

// What oikos reads of a /sync response; everything else passes through untouched.
export const roomEventSchema = z.looseObject({
  event_id: z.string(),
  type: z.string(),
  sender: z.string(),
  content: z.record(z.string(), z.unknown()),
  state_key: z.string().optional(),
  origin_server_ts: z.number().optional(),
});

const strippedStateSchema = z.looseObject({
  type: z.string(),
  sender: z.string(),
  state_key: z.string().optional(),
  content: z.record(z.string(), z.unknown()),
});

export const syncResponseSchema = z.looseObject({
  next_batch: z.string(),
  rooms: z
    .looseObject({
      join: z
        .record(
          z.string(),
          z.looseObject({
            timeline: z
              .looseObject({
                events: z.array(roomEventSchema).default([]),
                /** Events between the previous batch and these were left out; page back from prev_batch. */
                limited: z.boolean().optional(),
                prev_batch: z.string().optional(),
              })
              .optional(),
            state: z.looseObject({ events: z.array(roomEventSchema).default([]) }).optional(),
          }),
        )
        .default({}),
      invite: z
        .record(
          z.string(),
          z.looseObject({
            invite_state: z.looseObject({ events: z.array(strippedStateSchema).default([]) }).optional(),
          }),
        )
        .default({}),
    })
    .optional(),
});

export type SyncResponse = z.infer<typeof syncResponseSchema>;
export type RoomEvent = z.infer<typeof roomEventSchema>;

/** GET /rooms/{id}/messages: one page of a room's events (dir=b: newest first). */
export const messagesPageSchema = z.looseObject({
  chunk: z.array(roomEventSchema).default([]),
  /** Where the next page starts; absent at the start of the room. */
  end: z.string().optional(),
});

export type MessagesPage = z.infer<typeof messagesPageSchema>;

/** GET /rooms/{id}/state: the room's current state events. */
export const roomStateSchema = z.array(roomEventSchema);
