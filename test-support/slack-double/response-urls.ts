import { randomBytes } from "node:crypto";
import { z } from "zod";
import { type Block, blocksSchema } from "./block-kit-schemas.ts";
import { inspectBotText } from "./encode-text.ts";

/** What an app sent to a response_url (a slash command's or a button click's). */
export interface Response {
  url: string;
  kind: "slash_command" | "block_actions";
  user: string;
  channel: string;
  responseType: "ephemeral" | "in_channel";
  text: string;
  blocks?: Block[];
  replaceOriginal: boolean;
}

const responseSchema = z.looseObject({
  text: z.string().optional(),
  blocks: blocksSchema.optional(),
  response_type: z.enum(["ephemeral", "in_channel"]).optional(),
  replace_original: z.boolean().optional(),
  delete_original: z.boolean().optional(),
  thread_ts: z.string().optional(),
});

/** A response_url takes up to 5 answers within 30 minutes (docs.slack.dev "Handling user interaction"). */
const USES = 5;

interface Issued {
  kind: Response["kind"];
  user: string;
  channel: string;
  uses: number;
  expires: number;
}

/**
 * The double's response_url endpoints: issued with each slash command and click, they accept
 * JSON answers (ephemeral by default for commands) up to 5 times within their lifetime and then
 * answer 404 `used_url` / `expired_url`, as Slack does.
 */
export class ResponseUrls {
  readonly responses: Response[] = [];
  readonly problems: string[] = [];
  readonly #issued = new Map<string, Issued>();
  readonly #lifetimeMs: number;

  constructor(lifetimeMs = 30 * 60_000) {
    this.#lifetimeMs = lifetimeMs;
  }

  issue(base: string, kind: Response["kind"], user: string, channel: string): string {
    const id = randomBytes(8).toString("hex");
    this.#issued.set(id, { kind, user, channel, uses: 0, expires: Date.now() + this.#lifetimeMs });
    return `${base}/response/${id}`;
  }

  /** Handles a POST to /response/<id>; returns the HTTP status and body. */
  answer(url: string, body: unknown): { status: number; body: Record<string, unknown>; response?: Response } {
    const id = url.split("/").pop() ?? "";
    const issued = this.#issued.get(id);
    if (!issued) return { status: 404, body: { ok: false, error: "invalid_url" } };
    if (Date.now() > issued.expires) return { status: 404, body: { ok: false, error: "expired_url" } };
    if (issued.uses >= USES) return { status: 404, body: { ok: false, error: "used_url" } };
    const parsed = responseSchema.safeParse(body);
    if (!parsed.success || (!parsed.data.text && !parsed.data.blocks)) {
      this.problems.push(`invalid response payload: ${JSON.stringify(body).slice(0, 200)}`);
      return { status: 400, body: { ok: false, error: "invalid_payload" } };
    }
    issued.uses++;
    const p = parsed.data;
    for (const text of [p.text ?? "", ...(p.blocks ?? []).flatMap(mrkdwnOf)]) {
      const { unescaped } = inspectBotText(text);
      if (unescaped.length > 0) this.problems.push(`unescaped ${unescaped.join(" ")} in a response`);
    }
    const response: Response = {
      url,
      kind: issued.kind,
      user: issued.user,
      channel: issued.channel,
      // Ephemeral unless it says in_channel; the original message stays unless replace_original.
      responseType: p.response_type ?? "ephemeral",
      text: p.text ?? "",
      ...(p.blocks ? { blocks: p.blocks } : {}),
      replaceOriginal: p.replace_original ?? false,
    };
    this.responses.push(response);
    return { status: 200, body: { ok: true }, response };
  }
}

function mrkdwnOf(block: Block): string[] {
  if (block.type === "section") return block.text.type === "mrkdwn" ? [block.text.text] : [];
  if (block.type === "context") return block.elements.filter((e) => e.type === "mrkdwn").map((e) => e.text);
  return [];
}
