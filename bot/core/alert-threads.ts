import { OikosError } from "../../base/errors.ts";
import type { Logger } from "../../base/logger.ts";
import type { QueuePayload, QueuePort } from "../../jobs/queue/port.ts";
import {
  type AlertGroup,
  bindAlertThread,
  claimAlertDigest,
  countInvestigating,
  getAlertGroup,
} from "../../store/alert-groups.ts";
import type { Db } from "../../store/db.ts";
import { appendMessage, hasPlatformEvent } from "../../store/messages.ts";
import { planAwaitingApproval } from "../../store/plans.ts";
import { createSession, getSession } from "../../store/sessions.ts";
import { clock } from "./card.ts";
import { buildAlertCard } from "./cards/alert-card.ts";
import type { ChatAdapter, MessageRef } from "./chat-adapter.ts";

/**
 * An `alert-thread` job as its queue hands it over, checked against its contract (jobs/contracts.ts);
 * a repeat's `changed` is what intake/alerts/what-changed.ts found in the labels and annotations.
 */
type AlertThreadJob = QueuePayload<"alert-thread">;
export type AlertThreadUpdate = AlertThreadJob["update"];
type AlertChanges = NonNullable<AlertThreadJob["changed"]>;

/** A changed value is shown up to this many characters. */
const CHANGE_VALUE_CHARS = 300;

export interface AlertThreadDeps {
  db: Db;
  queue: QueuePort;
  adapters: ReadonlyMap<string, ChatAdapter>;
  logger: Logger;
  maxConcurrent: number;
  /** Re-renders a session's plan card (it shows when the alert resolved while the plan waits). */
  refreshPlans(adapter: ChatAdapter, sessionId: string): Promise<void>;
}

/**
 * The bot's side of an alert group (the `alert-thread` job): opens its thread (the alert card,
 * its mentions, a session bound to the thread whose first message is the alert brief the intake
 * wrote) and posts repeats, flapping and the resolution into that thread. The investigation
 * itself is started by intake/alerts/dispatch.ts, through the queue, once a slot is free.
 */
export class AlertThreads {
  readonly #deps: AlertThreadDeps;

  constructor(deps: AlertThreadDeps) {
    this.#deps = deps;
  }

  async handle(job: AlertThreadJob): Promise<void> {
    const { db, logger } = this.#deps;
    const group = await getAlertGroup(db, job.groupId);
    if (!group?.room || !group.platform) return;
    const adapter = this.#deps.adapters.get(group.platform);
    // Retried with backoff: at start-up the adapter (the terminal's too) may come up after the queue.
    if (!adapter)
      throw new OikosError(
        "chat_adapter_missing",
        `No ${group.platform} chat adapter runs in this process for alert ${group.id}: the alert thread is posted once it connects (see !status).`,
      );
    if (job.update === "open") {
      await this.#open(adapter, group);
      return;
    }
    if (!group.thread || !group.session_id) {
      logger.warn(
        { group: group.id, update: job.update },
        "alert update before its thread was opened; opening it",
      );
      await this.#open(adapter, group);
      return;
    }
    // Updates held back by the minimum interval, in one post; nothing when a later post (or another
    // run of this digest) covered them: only the run whose claim succeeds posts.
    const shown = job.update === "digest" ? await this.#claimDigest(group) : group;
    if (!shown) return;
    await this.#refreshRoot(adapter, shown);
    const text =
      job.update === "repeat" && job.changed?.length
        ? changedText(shown, job.changed)
        : await this.#updateText(shown, job.update);
    await adapter.post(group.room, group.thread, { text });
    if (job.update === "resolved") {
      await appendMessage(db, {
        sessionId: group.session_id,
        role: "system",
        name: `alert:${group.id}`,
        content: `The alert that started this task resolved at ${group.resolved_at?.toISOString() ?? "now"} (${group.source} says so). If your plan is no longer needed, tell the operator instead of pursuing it.`,
      });
      await this.#deps.refreshPlans(adapter, group.session_id);
    }
  }

  /** The group as read when this run claimed its held updates, or undefined: nothing to post. */
  async #claimDigest(read: AlertGroup): Promise<AlertGroup | undefined> {
    let group: AlertGroup | undefined = read;
    // a damped delivery may add one between the read and the claim: read again (a few times at most)
    for (let attempt = 0; group && group.unposted > 0 && attempt < 5; attempt++) {
      if (await claimAlertDigest(this.#deps.db, group.id, group.unposted, new Date())) return group;
      group = await getAlertGroup(this.#deps.db, group.id);
    }
    return undefined;
  }

  async #open(adapter: ChatAdapter, group: AlertGroup): Promise<void> {
    const { db } = this.#deps;
    let thread = group.thread;
    if (!thread) {
      const card = await buildAlertCard(db, group, await this.#waitingBehind(group));
      const ref = await adapter.post(group.room!, null, { card });
      thread = ref.messageId;
    }
    const session =
      (group.session_id ? await getSession(db, group.session_id) : undefined) ??
      (await createSession(db, {
        platform: adapter.platform,
        room: group.room!,
        thread,
        createdBy: `alert:${group.source}`,
        goal: group.title.slice(0, 500),
      }));
    const eventId = `alert:${group.id}`;
    if (!(await hasPlatformEvent(db, session.id, eventId))) {
      await appendMessage(db, {
        sessionId: session.id,
        role: "user",
        content: group.brief,
        author: `alert:${group.source}`,
        platformEventId: eventId,
      });
    }
    await bindAlertThread(db, group.id, { thread, sessionId: session.id }, new Date());
    if (group.investigation === "waiting") {
      await this.#deps.queue.enqueue("alert-dispatch", {}, { jobId: "alert-dispatch" });
    }
  }

  async #refreshRoot(adapter: ChatAdapter, group: AlertGroup): Promise<void> {
    const ref: MessageRef = {
      platform: adapter.platform,
      room: group.room!,
      messageId: group.thread!,
      thread: null,
    };
    try {
      await adapter.edit(ref, {
        card: await buildAlertCard(this.#deps.db, group, await this.#waitingBehind(group)),
      });
    } catch (error) {
      this.#deps.logger.warn({ err: error, group: group.id }, "editing the alert card failed");
    }
  }

  async #updateText(group: AlertGroup, update: Exclude<AlertThreadUpdate, "open">): Promise<string> {
    const held =
      group.unposted > 0
        ? ` (${group.unposted} more notification(s) since the last update were not posted)`
        : "";
    switch (update) {
      case "repeat":
        return `🔁 Still firing: notification ${group.fire_count} of this alert${held}.`;
      case "digest": {
        const state = group.status === "firing" ? "firing" : "resolved again";
        const flaps =
          group.flap_count > 0 ? `, fired again ${group.flap_count} time(s) after resolving so far` : "";
        return `🔁 ${group.unposted} update(s) held back by the minimum interval: now ${state}${flaps}.`;
      }
      case "refire":
        return `⚠️ Firing again soon after it resolved (flapping, ${group.flap_count} time(s)); this thread continues, no new investigation${held}.`;
      case "resolved": {
        const pending = group.session_id
          ? await planAwaitingApproval(this.#deps.db, group.session_id)
          : undefined;
        const when =
          (group.resolved_at ? ` at ${clock(group.resolved_at)}` : "") +
          (group.flap_count > 0
            ? ` (it has flapped: fired again ${group.flap_count} time(s) after resolving)`
            : "");
        if (pending)
          return `✅ Resolved${when}, while the plan above still waits for approval: check it is still needed before you approve it.`;
        if (group.investigation === "skipped" || group.investigation === "waiting")
          return `✅ Resolved${when}, before an investigation started; nothing was run.`;
        return `✅ Resolved${when}.`;
      }
    }
  }

  async #waitingBehind(group: AlertGroup): Promise<number> {
    if (group.investigation !== "waiting") return 0;
    const running = await countInvestigating(this.#deps.db);
    return running >= this.#deps.maxConcurrent ? running : 0;
  }
}

/** A repeat that changed labels or annotations: what changed, not only that it still fires. */
function changedText(group: AlertGroup, changes: AlertChanges): string {
  const lines = changes.map(({ field, key, was, now }) => {
    if (was === null) return `- ${field} \`${key}\` added: ${quoted(now)}`;
    if (now === null) return `- ${field} \`${key}\` removed (was ${quoted(was)})`;
    return `- ${field} \`${key}\`: ${quoted(was)} → ${quoted(now)}`;
  });
  return `🔁 Still firing (notification ${group.fire_count}), and it changed:\n${lines.join("\n")}`;
}

function quoted(value: string | null): string {
  const text = (value ?? "").replace(/\s+/g, " ").trim();
  const cut = text.length > CHANGE_VALUE_CHARS ? `${text.slice(0, CHANGE_VALUE_CHARS)}…` : text;
  return `“${cut}”`;
}
