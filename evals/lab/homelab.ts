import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { FAKE_TOOL_PATH, toolShim, worldFile } from "../../demo/homelab/tool-rule.ts";
import { type SshLab, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import type { ScenarioHost } from "../harness/host-schema.ts";
import { writeLabFile } from "../harness/lab-files.ts";

/**
 * The simulated homelab: one real OpenSSH sshd per lab host on loopback, started once for a whole
 * eval run. Each scenario rewrites the hosts it uses: world variables, fake-command rules, shims.
 */
export class Homelab {
  readonly lab: SshLab;
  readonly #shims = new Map<string, Set<string>>();
  /** Hosts a scenario took down, partitioned or re-keyed: brought back before the next one. */
  readonly #disturbed = new Set<string>();
  readonly #blackholes = new Map<string, { server: Server; sockets: Set<Socket> }>();

  private constructor(lab: SshLab) {
    this.lab = lab;
  }

  static async start(hostNames: string[]): Promise<Homelab> {
    const unique = [...new Set(hostNames)];
    const lab = await startSshLab({ hosts: unique.map((name) => ({ name })) });
    const homelab = new Homelab(lab);
    const fakeTool = await readFile(FAKE_TOOL_PATH, "utf8");
    for (const name of unique) await lab.writeTool(name, "fake-tool.mjs", fakeTool);
    return homelab;
  }

  /** Resets every host the scenario uses: variables, rules, call log, command shims. */
  async prepare(scenario: { hosts: readonly ScenarioHost[] }): Promise<void> {
    for (const name of [...this.#disturbed]) await this.startHost(name);
    this.#disturbed.clear();
    for (const host of scenario.hosts) {
      const lab = this.lab.host(host.name);
      const world = join(lab.stateDir, "world.json");
      await writeFile(world, worldFile(host.vars, host.tools));
      await chmod(world, 0o666);
      await rm(join(lab.stateDir, "calls.jsonl"), { force: true });
      await writeFile(join(lab.stateDir, "calls.jsonl"), "");
      await chmod(join(lab.stateDir, "calls.jsonl"), 0o666);
      const shims = this.#shims.get(host.name) ?? new Set<string>();
      for (const tool of Object.keys(host.tools)) {
        if (shims.has(tool)) continue;
        await this.lab.writeTool(host.name, tool, toolShim(join(lab.toolboxDir, "fake-tool.mjs"), tool));
        shims.add(tool);
      }
      this.#shims.set(host.name, shims);
      for (const [path, content] of Object.entries(host.files)) await writeLabFile(path, content);
    }
  }

  async vars(hostName: string): Promise<Record<string, unknown>> {
    const text = await readFile(join(this.lab.host(hostName).stateDir, "world.json"), "utf8");
    return (JSON.parse(text) as { vars: Record<string, unknown> }).vars;
  }

  async setVars(hostName: string, vars: Record<string, unknown>): Promise<void> {
    const file = join(this.lab.host(hostName).stateDir, "world.json");
    const world = JSON.parse(await readFile(file, "utf8")) as { vars: Record<string, unknown> };
    world.vars = { ...world.vars, ...vars };
    await writeFile(file, JSON.stringify(world));
  }

  async calls(hostName: string): Promise<{ tool: string; args: string }[]> {
    const text = await readFile(join(this.lab.host(hostName).stateDir, "calls.jsonl"), "utf8");
    return text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { tool: string; args: string });
  }

  /** sshd comes back on the same port with a new host key (a reinstalled or impersonated host). */
  async rotateHostKey(hostName: string): Promise<void> {
    await this.#closeBlackhole(hostName);
    this.#disturbed.add(hostName);
    await this.lab.restartHost(hostName, { newHostKey: true });
  }

  /** sshd and its sessions killed; the port refuses connections. */
  async stopHost(hostName: string): Promise<void> {
    this.#disturbed.add(hostName);
    await this.#closeBlackhole(hostName);
    await this.lab.stopHost(hostName);
  }

  /** sshd back on its port (restarted when it was running), with the host key it has now. */
  async startHost(hostName: string): Promise<void> {
    await this.#closeBlackhole(hostName);
    await this.lab.restartHost(hostName);
  }

  /** sshd down and its port held by a listener that never answers: connections hang until a timeout. */
  async partitionHost(hostName: string): Promise<void> {
    await this.stopHost(hostName);
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.lab.host(hostName).port, "127.0.0.1", () => resolve());
    });
    this.#blackholes.set(hostName, { server, sockets });
  }

  async #closeBlackhole(hostName: string): Promise<void> {
    const hole = this.#blackholes.get(hostName);
    if (!hole) return;
    this.#blackholes.delete(hostName);
    for (const socket of hole.sockets) socket.destroy();
    await new Promise<void>((resolve) => hole.server.close(() => resolve()));
  }

  async stop(): Promise<void> {
    for (const name of [...this.#blackholes.keys()]) await this.#closeBlackhole(name);
    await this.lab.stop();
  }
}
