import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, type ToolCallOutcome } from "../../mcp-server/call-tool.ts";
import { perSuite, releasingOnFailure } from "../../per-suite.ts";
import { type LabHostSpec, type SshLab, startSshLab } from "../../sshd/ssh-lab.ts";
import { type ExecutionStack, type ExecutionStackOptions, startExecutionStack } from "./execution-stack.ts";

export interface LabSuite {
  /** The sshd lab with hosts `alpha` and `beta`. */
  readonly lab: SshLab;
  readonly stack: ExecutionStack;
  readonly client: Client;
  /** Calls the `run` tool in `sessionId` with purpose "test" unless `args` gives one. */
  run(sessionId: string | undefined, args: Record<string, unknown>): Promise<ToolCallOutcome>;
}

/**
 * The execution stack on a two-host sshd lab (alpha, beta, or `hosts`) for the enclosing `describe`: started
 * in `before`, stopped in `after`. Read lab, stack and client through the returned object.
 */
export function labSuite(options: Omit<ExecutionStackOptions, "lab"> & { hosts?: LabHostSpec[] }): LabSuite {
  const { hosts = [{ name: "alpha" }, { name: "beta" }], ...stackOptions } = options;
  const started = perSuite(
    async () =>
      releasingOnFailure(
        await startSshLab({ hosts }),
        (lab) => lab.stop(),
        async (lab) => ({ lab, stack: await startExecutionStack({ lab, ...stackOptions }) }),
      ),
    async ({ lab, stack }) => {
      await stack.close();
      await lab.stop();
    },
  );
  return {
    get lab() {
      return started().lab;
    },
    get stack() {
      return started().stack;
    },
    get client() {
      return started().stack.client;
    },
    run: (sessionId, args) =>
      callTool(started().stack.client, "run", { purpose: "test", ...args }, sessionId),
  };
}
