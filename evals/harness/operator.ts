import type { CardKind } from "../../store/statuses.ts";
import type { Homelab } from "../lab/homelab.ts";
import { sendAlert } from "./alert-step.ts";
import { writeLabFile } from "./lab-files.ts";
import { performLab } from "./lab-step.ts";
import type { OperatorAction, WaitFor } from "./manifest.ts";
import type { BaseOperatorAction } from "./operator-schema.ts";
import { performProxmox } from "./proxmox-step.ts";
import type { RestartPoints } from "./restart-points.ts";
import { conditionHolds } from "./state-condition.ts";
import { type EvalSystem, OPERATOR, SECOND_OPERATOR } from "./system.ts";

const USERS: Record<string, string> = { alice: OPERATOR, bob: SECOND_OPERATOR };

export class ScenarioTimeout extends Error {}

/**
 * Plays the operator's part in the Matrix room: top-level messages start threads (sessions),
 * labelled so later actions can reply or react in the same thread; waits poll persisted state.
 */
export class OperatorDriver {
  readonly #system: EvalSystem;
  readonly #homelab: Homelab;
  readonly #deadline: number;
  readonly #modelCalls: () => number;
  /** Thread label → the root event id of that thread. */
  readonly threads = new Map<string, string>();

  readonly #restarts: RestartPoints | undefined;

  constructor(
    system: EvalSystem,
    homelab: Homelab,
    deadline: number,
    modelCalls: () => number,
    restarts?: RestartPoints,
  ) {
    this.#system = system;
    this.#homelab = homelab;
    this.#deadline = deadline;
    this.#modelCalls = modelCalls;
    this.#restarts = restarts;
  }

  async perform(action: OperatorAction | BaseOperatorAction): Promise<void> {
    if ("when" in action && action.when) {
      const sessionId = (await this.sessionId(action.when.thread)) ?? "none";
      const holds = await conditionHolds(this.#system, this.#homelab, sessionId, action.when);
      const branch = holds ? action.then : action.else;
      for (const step of branch ?? []) await this.perform(step);
      return;
    }
    const { double, room } = this.#system;
    const user = USERS[action.as ?? "alice"] ?? action.as!;
    if (action.say !== undefined) {
      const label = action.thread ?? "main";
      const root = this.threads.get(label);
      if (root) {
        double.message(user, room, action.say, { thread: root });
      } else {
        this.threads.set(label, double.message(user, room, action.say));
        await this.#until(
          `session for thread ${label}`,
          async () => (await this.sessionId(label)) !== undefined,
        );
      }
      return;
    }
    if (action.react !== undefined) {
      const kind = action.card!;
      const card = await this.latestCard(kind, action.thread ?? "main");
      if (!card) throw new Error(`no ${kind} card in thread ${action.thread ?? "main"} to react to`);
      double.react(user, room, card, action.react);
      return;
    }
    if (action.wait) return this.wait(action.wait);
    if (action.type_phrase !== undefined) {
      const label = action.type_phrase;
      const sessionId = await this.sessionId(label);
      const row = await this.#system.store.db
        .selectFrom("approvals")
        .select("required_phrase")
        .where("session_id", "=", sessionId ?? "none")
        .where("status", "=", "pending")
        .where("required_phrase", "is not", null)
        .executeTakeFirst();
      if (!row?.required_phrase) throw new Error(`no approval in thread ${label} asks for a typed phrase`);
      double.message(user, room, row.required_phrase, { thread: this.threads.get(label)! });
      return;
    }
    if (action.restart) return this.#restart(action.restart.during);
    if (action.write_file) return writeLabFile(action.write_file.path, action.write_file.content);
    if (action.set_world) return this.#homelab.setVars(action.set_world.host, action.set_world.vars);
    if (action.alert) {
      const alert = action.alert;
      const root = await sendAlert(this.#system, alert, (what, check) => this.#until(what, check));
      if (!this.threads.has(alert.thread)) this.threads.set(alert.thread, root);
      return;
    }
    if (action.lab) return performLab(this.#homelab, action.lab);
    if (action.proxmox) return performProxmox(this.#system, this.#homelab, action.proxmox);
  }

  async sessionId(label: string): Promise<string | undefined> {
    const root = this.threads.get(label);
    if (!root) return undefined;
    const row = await this.#system.store.db
      .selectFrom("sessions")
      .select("id")
      .where("thread", "=", root)
      .executeTakeFirst();
    return row?.id;
  }

  async latestCard(kind: CardKind, label: string): Promise<string | undefined> {
    const sessionId = await this.sessionId(label);
    if (!sessionId) return undefined;
    const row = await this.#system.store.db
      .selectFrom("chat_cards")
      .select("message_id")
      .where("session_id", "=", sessionId)
      .where("kind", "=", kind)
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    return row?.message_id;
  }

  async wait(spec: WaitFor): Promise<void> {
    const label = spec.thread ?? "main";
    const db = this.#system.store.db;
    const deadline = spec.timeout_s
      ? Math.min(this.#deadline, Date.now() + spec.timeout_s * 1000)
      : this.#deadline;
    if (spec.ms !== undefined) await new Promise((resolve) => setTimeout(resolve, spec.ms));
    if (spec.card) {
      const want = spec.count ?? 1;
      const kinds = spec.card;
      await this.#until(
        `${want} ${kinds.join(" or ")} card(s) in thread ${label}`,
        async () => {
          const sessionId = await this.sessionId(label);
          if (!sessionId) return false;
          const rows = await db
            .selectFrom("chat_cards")
            .select("message_id")
            .where("session_id", "=", sessionId)
            .where("kind", "in", kinds)
            .execute();
          return rows.length >= want;
        },
        deadline,
      );
    }
    if (spec.status) {
      const pattern = new RegExp(`^(${spec.status})$`);
      await this.#until(
        `session status ${spec.status} in thread ${label}`,
        async () => {
          const sessionId = await this.sessionId(label);
          if (!sessionId) return false;
          const row = await db
            .selectFrom("sessions")
            .select("status")
            .where("id", "=", sessionId)
            .executeTakeFirst();
          return row !== undefined && pattern.test(row.status);
        },
        deadline,
      );
    }
    if (spec.execution) {
      const pattern = new RegExp(`^(${spec.execution})$`);
      await this.#until(
        `an execution ${spec.execution} in thread ${label}`,
        async () => {
          const sessionId = await this.sessionId(label);
          if (!sessionId) return false;
          const rows = await db
            .selectFrom("executions")
            .select("status")
            .where("session_id", "=", sessionId)
            .execute();
          return rows.some((r) => pattern.test(r.status));
        },
        deadline,
      );
    }
    if (spec.calls) {
      const { host, tool, count } = spec.calls;
      await this.#until(
        `${count} call(s) of ${tool} on ${host}`,
        async () => (await this.#homelab.calls(host)).filter((c) => c.tool === tool).length >= count,
        deadline,
      );
    }
    if (spec.turns_idle) {
      await this.#until(
        "every agent turn to end",
        async () =>
          (await db
            .selectFrom("sessions")
            .select("id")
            .where("turn_owner", "is not", null)
            .executeTakeFirst()) === undefined,
        deadline,
      );
    }
    if (spec.quiet) await this.quiet(deadline);
  }

  /** Nothing queued or running, no turn held, no model call for two looks in a row. */
  async quiet(deadline = this.#deadline): Promise<void> {
    const db = this.#system.store.db;
    let calm = 0;
    let calls = this.#modelCalls();
    await this.#until(
      "the system to go quiet",
      async () => {
        const jobs = await db
          .selectFrom("queue_jobs")
          .select("id")
          .where("queue", "in", ["agent-turn", "execute", "continue"])
          .where("status", "in", ["waiting", "active"])
          .where("run_at", "<=", new Date(Date.now() + 1000))
          .limit(1)
          .executeTakeFirst();
        const running = await db
          .selectFrom("executions")
          .select("id")
          .where("status", "in", ["queued", "running"])
          .limit(1)
          .executeTakeFirst();
        const turn = await db
          .selectFrom("sessions")
          .select("id")
          .where("turn_owner", "is not", null)
          .limit(1)
          .executeTakeFirst();
        const now = this.#modelCalls();
        const still = !jobs && !running && !turn && now === calls;
        calls = now;
        calm = still ? calm + 1 : 0;
        return calm >= 3;
      },
      deadline,
      150,
    );
  }

  /** A restart, at once or while the model's reply to step `during` is held (restart-points.ts). */
  async #restart(during: string | undefined): Promise<void> {
    const restarts = this.#restarts;
    if (during === undefined || !restarts) return this.#system.restart();
    await this.#until(`the model to be asked for "${during}"`, async () => restarts.asked(during));
    await this.#system.restart();
    restarts.restarted(during);
  }

  async #until(
    what: string,
    check: () => Promise<boolean>,
    deadline = this.#deadline,
    pollMs = 50,
  ): Promise<void> {
    while (!(await check())) {
      if (Date.now() > deadline) throw new ScenarioTimeout(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
