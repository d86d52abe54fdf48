/** Which part of oikos this process runs. */
export type ProcessRole = "all" | "worker" | "chat";

/**
 * Whether this process consumes the work queues (agent turns, executions, sweeps). `oikos chat`
 * leaves that to `oikos worker` processes when the queue is shared through Redis; on the in-process
 * queue nobody else can, so it runs them itself. (A leaf module: capabilities import it, and
 * app/compose.ts imports the capabilities.)
 */
export function runsWorkers(role: ProcessRole, queueKind: "bullmq" | "in-process"): boolean {
  return role !== "chat" || queueKind === "in-process";
}
