import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FAKE_TOOL_PATH, type ToolRule, toolShim, worldFile } from "./tool-rule.ts";

export interface LocalHostSpec {
  vars: Record<string, unknown>;
  tools: Record<string, ToolRule[]>;
}

/**
 * A simulated host on the machine oikos runs on, for `oikos demo` where no sshd (or root) is at
 * hand: a folder of fake tools (`bin/`, first on the PATH of the commands the local transport runs)
 * over one world file. The eval lab (evals/lab/homelab.ts) puts the same fake tools behind real sshd.
 */
export class LocalSimulatedHost {
  readonly binDir: string;
  readonly stateDir: string;

  private constructor(dir: string) {
    this.binDir = join(dir, "bin");
    this.stateDir = join(dir, "state");
  }

  static async create(dir: string, spec: LocalHostSpec): Promise<LocalSimulatedHost> {
    const host = new LocalSimulatedHost(dir);
    await mkdir(host.binDir, { recursive: true });
    await mkdir(host.stateDir, { recursive: true });
    await writeFile(join(host.stateDir, "world.json"), worldFile(spec.vars, spec.tools));
    await writeFile(join(host.stateDir, "calls.jsonl"), "");
    for (const tool of Object.keys(spec.tools)) {
      const shim = join(host.binDir, tool);
      await writeFile(shim, toolShim(FAKE_TOOL_PATH, tool, host.stateDir));
      await chmod(shim, 0o755);
    }
    return host;
  }

  /** The world variables now (what the commands changed). */
  async vars(): Promise<Record<string, unknown>> {
    const text = await readFile(join(this.stateDir, "world.json"), "utf8");
    return (JSON.parse(text) as { vars: Record<string, unknown> }).vars;
  }
}
