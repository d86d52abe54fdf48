import { z } from "zod";

// Content schemas of the events the bot may send, after the Matrix Client-Server spec (v1.11+):
// m.room.message (m.text / m.notice, HTML via org.matrix.custom.html), rich replies without the
// removed <mx-reply> fallback, threads (MSC3440: m.thread + is_falling_back + m.in_reply_to),
// edits (m.replace + m.new_content, which itself carries no relation), reactions (m.annotation),
// and intentional mentions (m.mentions). Strict objects: an unknown or misspelt key fails.

const eventId = z.string().regex(/^\$[^\s:]+(:\S+)?$/, "must be an event id ($…)");
const userId = z.string().regex(/^@[^\s:]+:\S+$/, "must be a user id (@user:server)");

export const mentionsSchema = z.strictObject({
  user_ids: z.array(userId).optional(),
  room: z.boolean().optional(),
});

const inReplyTo = z.strictObject({ event_id: eventId });

const threadRelation = z.strictObject({
  rel_type: z.literal("m.thread"),
  event_id: eventId,
  is_falling_back: z.boolean(),
  "m.in_reply_to": inReplyTo,
});
const replyRelation = z.strictObject({ "m.in_reply_to": inReplyTo });
const replaceRelation = z.strictObject({ rel_type: z.literal("m.replace"), event_id: eventId });

const textBody = {
  msgtype: z.enum(["m.text", "m.notice"]),
  body: z.string().min(1),
  format: z.literal("org.matrix.custom.html").optional(),
  formatted_body: z.string().min(1).optional(),
  "m.mentions": mentionsSchema.optional(),
};

function htmlPairing(content: { format?: string; formatted_body?: string }, ctx: z.RefinementCtx): void {
  if ((content.format === undefined) !== (content.formatted_body === undefined)) {
    ctx.addIssue({ code: "custom", message: "format and formatted_body go together" });
  }
  if (content.formatted_body?.includes("<mx-reply>")) {
    ctx.addIssue({
      code: "custom",
      message: "the <mx-reply> fallback was removed from the spec (v1.13); do not send it",
    });
  }
}

/** m.new_content: a full message content without a relation. */
export const newContentSchema = z.strictObject(textBody).superRefine(htmlPairing);

export const roomMessageSchema = z
  .strictObject({
    ...textBody,
    "m.relates_to": z.union([threadRelation, replyRelation, replaceRelation]).optional(),
    "m.new_content": newContentSchema.optional(),
  })
  .superRefine((content, ctx) => {
    htmlPairing(content, ctx);
    const relation = content["m.relates_to"];
    const isEdit = relation !== undefined && "rel_type" in relation && relation.rel_type === "m.replace";
    if (isEdit && !content["m.new_content"]) {
      ctx.addIssue({ code: "custom", message: "an m.replace edit needs m.new_content" });
    }
    if (!isEdit && content["m.new_content"]) {
      ctx.addIssue({ code: "custom", message: "m.new_content is only allowed on an m.replace edit" });
    }
  });

export const reactionSchema = z.strictObject({
  "m.relates_to": z.strictObject({
    rel_type: z.literal("m.annotation"),
    event_id: eventId,
    key: z.string().min(1),
  }),
});

export const redactionRequestSchema = z.strictObject({ reason: z.string().optional() });
export const typingRequestSchema = z.strictObject({
  typing: z.boolean(),
  timeout: z.number().int().positive().optional(),
});

/** The schema for a sent event type; undefined means the bot has no business sending that type. */
export function schemaFor(eventType: string): z.ZodType | undefined {
  switch (eventType) {
    case "m.room.message":
      return roomMessageSchema;
    case "m.reaction":
      return reactionSchema;
    default:
      return undefined;
  }
}
