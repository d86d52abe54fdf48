import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeLoopbackPort } from "../sshd/free-port.ts";

/** Where Debian's `prometheus-alertmanager` puts the binary (scripts/install-test-deps.sh installs it). */
export const ALERTMANAGER_BIN = "/usr/bin/prometheus-alertmanager";

export function alertmanagerMissing(): string | false {
  return existsSync(ALERTMANAGER_BIN)
    ? false
    : `Alertmanager tests skipped: ${ALERTMANAGER_BIN} is missing (run scripts/install-test-deps.sh as root)`;
}

export interface AlertmanagerOptions {
  /** The webhook_configs url (oikos's /alerts/<source>). */
  webhookUrl: string;
  /** Sent as `Authorization: Bearer <token>` (http_config.authorization). */
  bearerToken: string;
  groupWait?: string;
  groupInterval?: string;
  repeatInterval?: string;
}

export interface LabelSet {
  [name: string]: string;
}

/**
 * A real Prometheus Alertmanager for one test: its own config, data folder and loopback port,
 * clustering off (no gossip port), one route to a webhook receiver with bearer auth. Alerts go
 * in through its own API (`/api/v2/alerts`), exactly as Prometheus sends them.
 */
export class Alertmanager {
  readonly url: string;
  readonly #child: ChildProcess;
  readonly #dir: string;
  #log = "";

  private constructor(url: string, child: ChildProcess, dir: string) {
    this.url = url;
    this.#child = child;
    this.#dir = dir;
    child.stderr?.on("data", (chunk: Buffer) => {
      this.#log = (this.#log + chunk.toString()).slice(-20_000);
    });
  }

  static async start(options: AlertmanagerOptions): Promise<Alertmanager> {
    const dir = await mkdtemp(join(tmpdir(), "oikos-alertmanager-"));
    const config = [
      "route:",
      "  receiver: oikos",
      "  group_by: [alertname]",
      `  group_wait: ${options.groupWait ?? "1s"}`,
      `  group_interval: ${options.groupInterval ?? "1s"}`,
      `  repeat_interval: ${options.repeatInterval ?? "1h"}`,
      "receivers:",
      "  - name: oikos",
      "    webhook_configs:",
      `      - url: ${JSON.stringify(options.webhookUrl)}`,
      "        send_resolved: true",
      "        http_config:",
      "          authorization:",
      "            type: Bearer",
      `            credentials: ${JSON.stringify(options.bearerToken)}`,
      "",
    ].join("\n");
    await writeFile(join(dir, "alertmanager.yml"), config, { mode: 0o600 });
    for (let attempt = 0; ; attempt++) {
      const port = await freeLoopbackPort();
      const child = spawn(
        ALERTMANAGER_BIN,
        [
          `--config.file=${join(dir, "alertmanager.yml")}`,
          `--storage.path=${join(dir, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`,
          "--cluster.listen-address=",
          "--log.level=warn",
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      const manager = new Alertmanager(`http://127.0.0.1:${port}`, child, dir);
      if (await manager.#ready()) return manager;
      await manager.stop({ keepDir: true });
      if (attempt >= 2) {
        await rm(dir, { recursive: true, force: true });
        throw new Error(`alertmanager did not start: ${manager.#log}`);
      }
    }
  }

  async #ready(): Promise<boolean> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (this.#child.exitCode !== null) return false;
      try {
        const response = await fetch(`${this.url}/-/ready`);
        if (response.ok) return true;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }

  /** Posts alerts to Alertmanager's API, as Prometheus does; `endsAt` in the past resolves one. */
  async postAlerts(
    alerts: { labels: LabelSet; annotations?: LabelSet; startsAt?: Date; endsAt?: Date }[],
  ): Promise<void> {
    const response = await fetch(`${this.url}/api/v2/alerts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        alerts.map((a) => ({
          labels: a.labels,
          annotations: a.annotations ?? {},
          ...(a.startsAt ? { startsAt: a.startsAt.toISOString() } : {}),
          ...(a.endsAt ? { endsAt: a.endsAt.toISOString() } : {}),
          generatorURL: "http://prometheus.test/graph",
        })),
      ),
    });
    if (!response.ok)
      throw new Error(`alertmanager refused the alerts: ${response.status} ${await response.text()}`);
  }

  /** Its log so far (warnings and errors, e.g. a webhook the receiver refused). */
  get log(): string {
    return this.#log;
  }

  async stop(options: { keepDir?: boolean } = {}): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      const exited = new Promise((resolve) => this.#child.once("exit", resolve));
      this.#child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (this.#child.exitCode === null) this.#child.kill("SIGKILL");
    }
    if (!options.keepDir) await rm(this.#dir, { recursive: true, force: true });
  }
}
