import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";
import type { RecordedRequest } from "../../test-support/scripted-model/index.ts";

/** Where failure dumps (and the scoreboard of `oikos eval`) are written: OIKOS_EVAL_OUT or ./eval-results. */
export function evalOutputDir(): string {
  return resolve(process.env.OIKOS_EVAL_OUT || "eval-results");
}

/** How many of the newest messages of each model request go into a dump (requests repeat the history). */
const REQUEST_TAIL = 4;

/**
 * The final state of a failed scenario as one JSON file, so a failure can be read without running it
 * again: sessions, transcript, plans and steps, executions with their output, approvals, audit log,
 * cards, the bot's posts and the model requests (each with its step and newest messages).
 */
export async function dumpFinalState(
  name: string,
  db: Kysely<Database>,
  botPosts: string[],
  requests: readonly RecordedRequest[] | undefined,
  failures: string[],
): Promise<string> {
  const table = <T extends keyof Database & string>(t: T) => db.selectFrom(t).selectAll().execute();
  const state = {
    scenario: name,
    failures,
    sessions: await table("sessions"),
    messages: await db.selectFrom("messages").selectAll().orderBy("id").execute(),
    plans: await table("plans"),
    plan_steps: await table("plan_steps"),
    executions: await db.selectFrom("executions").selectAll().orderBy("created_at").execute(),
    approvals: await table("approvals"),
    audit_log: await db.selectFrom("audit_log").selectAll().orderBy("created_at").execute(),
    chat_cards: await table("chat_cards"),
    posts: botPosts,
    model_requests: (requests ?? []).map((r) => ({
      index: r.index,
      step: r.step,
      messages: r.body.messages.length,
      newest: r.body.messages.slice(-REQUEST_TAIL),
    })),
  };
  const dir = evalOutputDir();
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${name}.failure.json`);
  await writeFile(file, `${JSON.stringify(state, null, 2)}\n`);
  return file;
}
