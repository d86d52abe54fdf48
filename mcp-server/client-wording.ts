import { AGENT_PRINCIPAL, type Principal } from "../policy/principal.ts";
import { REFUSALS, refusalSchema } from "../policy/refusals.ts";
import { gateRefused, type ToolResult } from "./tool-result.ts";

/**
 * A refusal on its way to an outside MCP client (the stdio client, a token's client), in the
 * client's words: where the table has a `forClient` next step it replaces the model's — "start a
 * session and pass its id" instead of "a wiring fault: tell the operator". The code, the reason and
 * every other field stay; the agent's own connection always gets the model's wording.
 */
export function inClientWords(result: ToolResult, principal: Principal): ToolResult {
  if (principal.id === AGENT_PRINCIPAL.id || !result.isError) return result;
  const refusal = refusalSchema.safeParse(result.structuredContent);
  if (!refusal.success) return result;
  const forClient = REFUSALS[refusal.data.code].forClient;
  return forClient ? gateRefused({ ...refusal.data, next_step: forClient }) : result;
}
