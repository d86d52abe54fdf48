/**
 * Which part of oikos this process runs: `all` (oikos start), `worker`, `chat` (terminal front
 * end), or `mcp` (the MCP server for one local client over stdio: no agent, no chat).
 */
export type ProcessRole = "all" | "worker" | "chat" | "mcp";

/**
 * Whether this process consumes the work queues (agent turns, executions, sweeps). `oikos chat`
 * and `oikos mcp` leave that to `oikos worker` processes when the queue is shared through Redis;
 * on the in-process queue nobody else can, so they run them themselves. (A leaf module: capabilities import it, and
 * app/compose.ts imports the capabilities.)
 */
export function runsWorkers(role: ProcessRole, queueKind: "bullmq" | "in-process"): boolean {
  return role === "all" || role === "worker" || queueKind === "in-process";
}

/** Whether the agent runs here: an MCP client over stdio is its own agent. */
export function runsAgent(role: ProcessRole, queueKind: "bullmq" | "in-process"): boolean {
  return role !== "mcp" && runsWorkers(role, queueKind);
}
