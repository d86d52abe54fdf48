import { createHash, createHmac } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type HostKeyStore, InMemoryHostKeyStore } from "./host-key-store.ts";

export interface KnownHostsEntry {
  patterns: string[];
  keyType: string;
  fingerprint: string;
}

/**
 * Reads OpenSSH known_hosts files (plain, `[host]:port`, hashed `|1|salt|hash`, `*`/`?` globs, `!`
 * negation). The files are never written: keys learned by trust-on-first-use go to `overlay`
 * (in memory unless another store is given), because the port only carries fingerprints, not keys.
 * `@cert-authority` and `@revoked` lines are ignored.
 */
export class KnownHostsFileStore implements HostKeyStore {
  readonly #paths: readonly string[];
  readonly #overlay: HostKeyStore;

  constructor(paths: string | readonly string[], options: { overlay?: HostKeyStore } = {}) {
    this.#paths = typeof paths === "string" ? [paths] : paths;
    this.#overlay = options.overlay ?? new InMemoryHostKeyStore();
  }

  async get(hostPort: string): Promise<string | null> {
    return (await this.getAll(hostPort))[0] ?? null;
  }

  async getAll(hostPort: string): Promise<readonly string[]> {
    const name = knownHostsName(hostPort);
    const found: string[] = [];
    for (const path of this.#paths) {
      for (const entry of await readEntries(path)) {
        if (matchesHost(entry.patterns, name)) found.push(entry.fingerprint);
      }
    }
    if (found.length > 0) return found;
    const learned = await this.#overlay.get(hostPort);
    return learned === null ? [] : [learned];
  }

  async remember(hostPort: string, fingerprint: string): Promise<void> {
    await this.#overlay.remember(hostPort, fingerprint);
  }
}

/** The name known_hosts uses for `host:port`: bare host on port 22, `[host]:port` otherwise. */
export function knownHostsName(hostPort: string): string {
  const split = hostPort.lastIndexOf(":");
  const host = hostPort.slice(0, split).replace(/^\[(.*)\]$/, "$1");
  const port = hostPort.slice(split + 1);
  return port === "22" ? host : `[${host}]:${port}`;
}

export function parseKnownHosts(text: string): KnownHostsEntry[] {
  const entries: KnownHostsEntry[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("@")) continue;
    const [hosts, keyType, key] = line.split(/\s+/);
    if (hosts === undefined || keyType === undefined || key === undefined) continue;
    const blob = Buffer.from(key, "base64");
    if (blob.length === 0) continue;
    const fingerprint = `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
    entries.push({ patterns: hosts.split(","), keyType, fingerprint });
  }
  return entries;
}

async function readEntries(path: string): Promise<KnownHostsEntry[]> {
  try {
    return parseKnownHosts(await readFile(path, "utf8"));
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return [];
    throw error;
  }
}

function matchesHost(patterns: readonly string[], name: string): boolean {
  let matched = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith("!");
    const body = negated ? pattern.slice(1) : pattern;
    if (!patternMatches(body, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function patternMatches(pattern: string, name: string): boolean {
  if (pattern.startsWith("|1|")) {
    const [, , salt, hash] = pattern.split("|");
    if (salt === undefined || hash === undefined) return false;
    const digest = createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64");
    return digest === hash;
  }
  if (!/[*?]/.test(pattern)) return pattern.toLowerCase() === name.toLowerCase();
  const regex = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${regex}$`, "i").test(name);
}
