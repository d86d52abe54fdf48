import { type Matcher, match, type ScriptedReply, type ScriptStep } from "../scripted-model/index.ts";

/** A reply with one tool call. */
export function call(name: string, args: Record<string, unknown> | string = {}): ScriptedReply {
  return { toolCalls: [{ name, arguments: args }] };
}

/** The request ends with the result of `tool`, and that result contains `pattern`. */
export function after(tool: string, pattern: string | RegExp = ""): Matcher {
  return match.all(match.endsWithToolResult(tool), match.lastToolResult(pattern, tool));
}

/**
 * The opening of most tasks: the operator's message matching `trigger` makes the model call
 * set_goal(`goal`), and the goal's result makes it call propose_plan(`steps`).
 */
export function goalThenPlan(trigger: string, goal: string, steps: object[]): ScriptStep[] {
  return [
    { name: "goal", when: match.lastUserMessage(trigger), reply: call("set_goal", { goal }) },
    { name: "plan", when: after("set_goal"), reply: call("propose_plan", { steps }) },
  ];
}

/** A reply moving plan step `seq` to `status` (update_plan_step), with any further arguments. */
export function setStep(seq: number, status: string, extra: Record<string, unknown> = {}): ScriptedReply {
  return call("update_plan_step", { seq, status, ...extra });
}

/** The read-only check the concurrency and continuation tests run. */
export const CHECK_GITEA = "systemctl is-active gitea";

/** The operator asks "is gitea up"; the model runs CHECK_GITEA on lxc:gitea. */
export function checkGitea(): ScriptStep {
  return {
    name: "check",
    when: match.lastUserMessage("is gitea up"),
    reply: call("run", { target: "lxc:gitea", command: CHECK_GITEA, purpose: "see whether gitea runs" }),
  };
}
