import { z } from "zod";

// Block Kit as Slack documents it, for the blocks oikos sends (header, section, context,
// divider, actions with buttons), with Slack's own limits: a message has at most 50 blocks,
// section text at most 3000 characters, a button label at most 75, a button value at most 2000,
// at most 25 elements in an actions block, action_ids unique within the message.

const plainText = z.strictObject({
  type: z.literal("plain_text"),
  text: z.string().min(1),
  emoji: z.boolean().optional(),
});
const mrkdwn = z.strictObject({
  type: z.literal("mrkdwn"),
  text: z.string().min(1),
  verbatim: z.boolean().optional(),
});
const blockId = z.string().min(1).max(255).optional();

const button = z.strictObject({
  type: z.literal("button"),
  text: plainText.extend({ text: z.string().min(1).max(75) }),
  action_id: z.string().min(1).max(255),
  value: z.string().max(2000).optional(),
  style: z.enum(["primary", "danger"]).optional(),
});

export const blockSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("header"),
    text: plainText.extend({ text: z.string().min(1).max(150) }),
    block_id: blockId,
  }),
  z.strictObject({
    type: z.literal("section"),
    text: z
      .union([mrkdwn, plainText])
      .refine((t) => t.text.length <= 3000, "section text is at most 3000 characters"),
    block_id: blockId,
  }),
  z.strictObject({
    type: z.literal("context"),
    elements: z
      .array(z.union([mrkdwn, plainText]))
      .min(1)
      .max(10),
    block_id: blockId,
  }),
  z.strictObject({ type: z.literal("divider"), block_id: blockId }),
  z.strictObject({ type: z.literal("actions"), elements: z.array(button).min(1).max(25), block_id: blockId }),
]);

export const blocksSchema = z
  .array(blockSchema)
  .max(50)
  .superRefine((blocks, ctx) => {
    const ids = blocks.flatMap((b) => (b.type === "actions" ? b.elements.map((e) => e.action_id) : []));
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: "custom", message: "action_id values must be unique" });
  });

export type Block = z.infer<typeof blockSchema>;

/** chat.postMessage / chat.update arguments oikos may send. */
export const postMessageSchema = z.looseObject({
  channel: z.string().min(1),
  text: z.string().min(1, "text is the notification and accessibility fallback: always send it"),
  blocks: blocksSchema.optional(),
  thread_ts: z
    .string()
    .regex(/^\d+\.\d+$/)
    .optional(),
});

export const updateMessageSchema = postMessageSchema.extend({ ts: z.string().regex(/^\d+\.\d+$/) });
