import type { Principal } from "../policy/principal.ts";
import type { Db } from "../store/db.ts";

/** The slice of a pino logger the MCP server uses; pino's Logger satisfies it. */
export interface McpLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

/**
 * What every tool group receives. Groups that need more (the queue port, the event bus, policy
 * config) declare `interface ExecutionToolDeps extends ToolDeps { queue: … }` in their own file and the
 * composition root passes an object that satisfies all of them.
 */
export interface ToolDeps {
  db: Db;
  /**
   * Who is on the other end of this connection (policy/principal.ts): the sessions it may name, the
   * tools it may call, and the actor of every write and audit row it causes.
   */
  principal: Principal;
  clock?: () => Date;
  logger?: McpLogger;
}

export function now(deps: Pick<ToolDeps, "clock">): Date {
  return deps.clock ? deps.clock() : new Date();
}
