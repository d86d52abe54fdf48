import type { DomainEvent } from "../../jobs/events/types.ts";
import type { Db } from "../../store/db.ts";
import { agentReplies } from "../../store/messages.ts";
import { planNeedsApproval } from "../../store/plans.ts";
import { settleRunThread } from "../../store/schedules.ts";
import {
  bindSessionThread,
  type SessionChatPlace,
  sessionAskedOperator,
  sessionSummary,
} from "../../store/sessions.ts";
import type { QuietMode } from "../../store/statuses.ts";
import type { ChatAdapter } from "./chat-adapter.ts";

/** Where a session's chat goes: its adapter, room and thread. */
export interface ThreadPlace {
  adapter: ChatAdapter;
  room: string;
  thread: string;
}

/** What the bot reads of a configured schedule: its name, prompt and what a clean run posts. */
export interface ScheduleThreadConfig {
  name: string;
  prompt: string;
  quiet?: QuietMode | undefined;
}

export type DeferredVerdict = { kind: "render"; place: ThreadPlace } | { kind: "skip" };

/**
 * A scheduled run posts nothing until it has something to show. While its thread is deferred,
 * the agent's progress text is kept (it is in the transcript) but not posted. The first card that
 * needs the operator (a plan that needs approval, an approval, a question) or a completion that
 * is not a clean success opens the thread: a root line naming the schedule, then what the agent
 * said so far, then the card. A clean success posts the schedule's quiet line (or nothing, or a
 * full thread: `quiet` in the schedule), and a reply to that line reaches the session.
 */
export class ScheduleThreads {
  readonly #db: Db;
  readonly #schedules: readonly ScheduleThreadConfig[];

  constructor(deps: { db: Db; schedules: readonly ScheduleThreadConfig[] }) {
    this.#db = deps.db;
    this.#schedules = deps.schedules;
  }

  /** A scheduled run that has posted nothing yet (no thread to post a card into). */
  isDeferred(run: SessionChatPlace["scheduleRun"]): boolean {
    return run?.threadState === "deferred";
  }

  /**
   * What to do with `event` for a session; `render` with the place to post at. `run` is the session's
   * scheduled run as read with its place for this event (`sessionChatPlace`), so no second read.
   */
  async route(
    sessionId: string,
    place: ThreadPlace,
    event: DomainEvent,
    run: SessionChatPlace["scheduleRun"],
  ): Promise<DeferredVerdict> {
    if (run?.threadState !== "deferred") return { kind: "render", place };
    const schedule = this.#schedules.find((s) => s.name === run.schedule);
    const quiet: QuietMode = schedule?.quiet ?? "line";
    switch (event.type) {
      case "approval.requested":
      case "question.raised":
        return this.#open(run.fireId, run.schedule, sessionId, place);
      case "plan.proposed":
        return (await this.#planNeedsOperator(sessionId, event.generation))
          ? this.#open(run.fireId, run.schedule, sessionId, place)
          : { kind: "skip" };
      case "task.completed": {
        if (quiet === "thread" || !(await this.#clean(sessionId, event.outcome))) {
          return this.#open(run.fireId, run.schedule, sessionId, place, "reported");
        }
        if (!(await settleRunThread(this.#db, run.fireId, { thread: "quiet", outcome: "quiet" })))
          return { kind: "skip" };
        if (quiet === "line") {
          const summary = await this.#summary(sessionId);
          const ref = await place.adapter.post(place.room, null, {
            text: `🗓 ${run.schedule}: nothing wrong${summary ? ` — ${summary}` : "."}`,
          });
          await this.#bindThread(sessionId, ref.messageId);
        }
        return { kind: "skip" };
      }
      default:
        return { kind: "skip" };
    }
  }

  async #open(
    fireId: string,
    name: string,
    sessionId: string,
    place: ThreadPlace,
    outcome?: "reported",
  ): Promise<DeferredVerdict> {
    if (!(await settleRunThread(this.#db, fireId, { thread: "posted", ...(outcome ? { outcome } : {}) }))) {
      return { kind: "skip" };
    }
    const schedule = this.#schedules.find((s) => s.name === name);
    const first = schedule?.prompt.split("\n")[0]?.slice(0, 200) ?? "";
    const root = await place.adapter.post(place.room, null, { text: `🗓 Scheduled run of ${name}: ${first}` });
    await this.#bindThread(sessionId, root.messageId);
    for (const text of await agentReplies(this.#db, sessionId))
      await place.adapter.post(place.room, root.messageId, { text });
    return { kind: "render", place: { ...place, thread: root.messageId } };
  }

  async #bindThread(sessionId: string, thread: string): Promise<void> {
    await bindSessionThread(this.#db, sessionId, thread);
  }

  async #planNeedsOperator(sessionId: string, generation: number): Promise<boolean> {
    return planNeedsApproval(this.#db, sessionId, generation);
  }

  /** Success, and nothing along the way needed an operator: no plan to approve, no approval, no question. */
  async #clean(sessionId: string, outcome: string): Promise<boolean> {
    if (outcome !== "success") return false;
    return !(await sessionAskedOperator(this.#db, sessionId));
  }

  async #summary(sessionId: string): Promise<string> {
    return ((await sessionSummary(this.#db, sessionId)) ?? "").split("\n")[0]!.slice(0, 300);
  }
}
