import {
  type Matcher,
  match,
  messageText,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptStep,
} from "../../test-support/scripted-model/index.ts";
import type { ModelStep, StepReply, StepWhen } from "./manifest.ts";
import type { RestartPoints } from "./restart-points.ts";

const regex = (pattern: string) => new RegExp(pattern, "i");

function matcherOf(when: StepWhen | undefined): Matcher {
  if (!when) return match.always();
  const parts: Matcher[] = [];
  if (when.user !== undefined) parts.push(match.lastUserMessage(regex(when.user)));
  if (when.tool_result !== undefined)
    parts.push(match.lastToolResult(regex(when.tool_result), when.tool_result_of));
  else if (when.tool_result_of !== undefined)
    parts.push(match.lastToolResult(/[\s\S]*/, when.tool_result_of));
  if (when.after_tool !== undefined) parts.push(match.endsWithToolResult(when.after_tool));
  if (when.note !== undefined) parts.push(match.lastSystemNote(regex(when.note)));
  if (when.any !== undefined) parts.push(match.anyMessage(regex(when.any)));
  if (when.none !== undefined) parts.push(match.not(match.anyMessage(regex(when.none))));
  if (when.system !== undefined) parts.push(match.systemMentions(regex(when.system)));
  if (when.last_call !== undefined) parts.push(lastCallMatches(regex(when.last_call)));
  if (when.no_tools !== undefined) parts.push(match.toolsOffered(!when.no_tools));
  return match.all(...parts);
}

/** The newest tool call the model made (`name {arguments}`) matches: sequencing by what was just done. */
function lastCallMatches(pattern: RegExp): Matcher {
  return (request) => {
    const call = request.body.messages.flatMap((m) => m.tool_calls ?? []).at(-1);
    return call !== undefined && pattern.test(`${call.function.name} ${call.function.arguments}`);
  };
}

/** The newest value of `"key":"…"` in the request's tool results (e.g. the execution id run returned). */
function newestJsonValue(request: RecordedRequest, key: string): string | undefined {
  const pattern = new RegExp(`"${key}"\\s*:\\s*"([^"]+)"`, "g");
  const messages = request.body.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = messageText(messages[i]);
    const found = [...text.matchAll(pattern)].at(-1);
    if (found) return found[1];
  }
  return undefined;
}

const TEMPLATE = /\{\{(exec_id|approval_id)\}\}/g;

function fill(value: unknown, request: RecordedRequest): unknown {
  if (typeof value === "string") {
    return value.replace(TEMPLATE, (_, key: string) =>
      key === "exec_id"
        ? (newestJsonValue(request, "execution_id") ?? "missing-execution-id")
        : (newestJsonValue(request, "approval_id") ?? "missing-approval-id"),
    );
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, request));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, request)]));
  }
  return value;
}

function replyOf(reply: StepReply): (request: RecordedRequest) => ScriptedReply {
  return (request) => ({
    ...(reply.text !== undefined ? { text: fill(reply.text, request) as string } : {}),
    ...(reply.tools
      ? {
          toolCalls: reply.tools.map((t) => ({
            name: t.name,
            arguments: fill(t.args, request) as Record<string, unknown> | string,
          })),
        }
      : {}),
    ...(reply.fault ? { fault: reply.fault } : {}),
    ...(reply.status ? { status: reply.status } : {}),
    ...(reply.delay_ms ? { delayMs: reply.delay_ms } : {}),
  });
}

/**
 * A manifest's model script as scripted-model steps (first unused matching step answers). A step a
 * restart happens during (`restarts`) holds its first reply until the restart and answers once more.
 */
export function scriptOf(steps: ModelStep[], restarts?: RestartPoints): ScriptStep[] {
  return steps.map((step, index) => {
    const name = step.name ?? `step-${index + 1}`;
    const reply = replyOf(step.reply);
    const held = restarts?.names(name) ?? false;
    const times = step.times === "always" ? Number.POSITIVE_INFINITY : (step.times ?? 1);
    return {
      name,
      when: matcherOf(step.when),
      reply: held
        ? (request: RecordedRequest) => {
            const hold = restarts!.holdFor(name);
            return { ...reply(request), ...(hold ? { hold } : {}) };
          }
        : reply,
      times: held ? times + 1 : times,
    };
  });
}
