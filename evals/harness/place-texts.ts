import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";
import { messageText, type RecordedRequest } from "../../test-support/scripted-model/index.ts";
import { everyStoredText } from "../../test-support/store/every-stored-text.ts";
import type { PlaceTexts } from "./absent.ts";

/**
 * Every place a leak could land, as text: the bot's posts, stored stdout/stderr, the audit log, what
 * the model was sent (each message and each tool call's arguments; with a real model, the transcript
 * is what it was sent), the stored transcript, and every text/json column of every table (read through
 * the catalogue, so a table added later is searched too).
 */
export async function readPlaceTexts(
  db: Kysely<Database>,
  botPosts: string[],
  requests: readonly RecordedRequest[] | undefined,
): Promise<PlaceTexts> {
  const executions = await db.selectFrom("executions").select(["stdout", "stderr"]).execute();
  const audit = await db.selectFrom("audit_log").select(["action", "subject", "details"]).execute();
  const messages = await db.selectFrom("messages").select(["content", "tool_calls"]).orderBy("id").execute();
  const transcript = messages.flatMap((m) => [
    m.content,
    ...((m.tool_calls ?? []) as unknown as { arguments: string }[]).map((call) => call.arguments),
  ]);
  const sent = requests?.flatMap((request) =>
    request.body.messages.flatMap((message) => [
      messageText(message),
      ...(message.tool_calls ?? []).map((call) => call.function.arguments),
    ]),
  );
  return {
    posts: botPosts,
    stored_output: executions.flatMap((e) => [e.stdout ?? "", e.stderr ?? ""]),
    audit: audit.map((a) => `${a.action} ${a.subject ?? ""} ${JSON.stringify(a.details)}`),
    model_requests: sent ?? transcript,
    transcript,
    tables: (await everyStoredText(db)).map(({ table, column, text }) => `${table}.${column}: ${text}`),
  };
}
