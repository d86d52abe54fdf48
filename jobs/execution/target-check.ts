import type { JailGrant } from "../../policy/jail-grant.ts";
import type { Db } from "../../store/db.ts";
import { findEntity } from "../../store/entities.ts";
import { recordGrantUnavailable, recordJailDetection } from "../../store/jail-detection.ts";
import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import type { JailFacts } from "../ssh/jail-script.ts";
import type { Target } from "../ssh/target.ts";
import { resolveTarget, type TargetDefaults } from "./target-resolver.ts";

interface Runner {
  exec(target: Target, command: string, options?: ExecOptions): Promise<ExecResult>;
}

/**
 * The grants `oikos check` tries, one jailed `true` each, and the daily diagnostics that ask for
 * approval instead of running unasked where the grant cannot be made (docs/jail.md, Grants).
 * Socket grants are left out: covering the other sockets always works; whether the service answers
 * is the service's business.
 */
const PROBED_GRANTS: readonly { grant: JailGrant; blinds: string }[] = [
  { grant: { resource: "netlink" }, blinds: "ip, ss, bridge, ethtool (network configuration)" },
  { grant: { resource: "network" }, blinds: "curl GETs, dig, ceph (network reads)" },
  { grant: { resource: "block_devices" }, blinds: "lsblk -f, blkid, fdisk -l, parted -l (disks)" },
  { grant: { resource: "zfs" }, blinds: "zfs list|get, zpool status|list|iostat" },
  { grant: { resource: "kernel_log" }, blinds: "dmesg (journalctl -k still reads the journal)" },
  {
    grant: { resource: "process_info" },
    blinds: "ss -p, lsof, netstat -p, fuser (other processes' sockets)",
  },
];

export type JailCheck =
  | { state: "works"; facts: JailFacts }
  | { state: "cannot"; transient: boolean; reason: string }
  | { state: "not_checked"; reason: string };

export interface TargetCheck {
  slug: string;
  /** How it is reached ("ssh root@10.0.0.5:22", "pct exec 105 via host:pve"). */
  route: string;
  reachable: boolean;
  /** Why not (reachable: false), in the words the transport gave. */
  unreachableReason?: string;
  bash: boolean;
  /** `uname -sr` of the target. */
  kernel?: string;
  jail: JailCheck;
  /** Each probed grant: it opens there, or why not. */
  grants: { grant: JailGrant; works: boolean; reason?: string; blinds: string }[];
}

export type TargetCheckOutcome =
  | { ok: true; check: TargetCheck }
  | { ok: false; missing: boolean; reason: string };

/**
 * `oikos check <slug>` without any model: is the target reachable, is bash there, does the read-only
 * jail start there (which engine, how its processes are bounded) and which grants open — the same
 * jail and the same setup failures a read-only run meets. What it learns is recorded on the entity
 * as a run would record it (store/jail-detection.ts, audited): the jail's availability (a transient
 * failure is never recorded) and each grant the target cannot make.
 */
export async function checkTarget(
  deps: { db: Db; runner: Runner; targets: TargetDefaults; now?: () => Date; timeoutMs?: number },
  slug: string,
): Promise<TargetCheckOutcome> {
  const resolved = await resolveTarget(deps.db, slug, deps.targets);
  if (!resolved.ok) return resolved;
  const { target, entity } = resolved;
  const now = deps.now ?? (() => new Date());
  const options: ExecOptions = { timeoutMs: deps.timeoutMs ?? 30_000 };
  const check: TargetCheck = {
    slug,
    route: routeOf(target),
    reachable: false,
    bash: false,
    jail: { state: "not_checked", reason: "the target was not reached" },
    grants: [],
  };
  let probe: ExecResult;
  try {
    // sh, not bash: the probe must also answer where bash is missing
    probe = await deps.runner.exec(target, "command -v bash; uname -sr", { ...options, shell: "sh" });
  } catch (error) {
    check.unreachableReason = error instanceof Error ? error.message : String(error);
    return { ok: true, check };
  }
  if (probe.exitCode === null && probe.stdout === "") {
    check.unreachableReason = probe.timedOut
      ? "it did not answer in time"
      : probe.stderr.trim() || "no answer";
    return { ok: true, check };
  }
  check.reachable = true;
  const [bashPath, kernel] = probe.stdout.split("\n");
  check.bash = (bashPath ?? "").startsWith("/");
  if (kernel) check.kernel = kernel.trim();
  if (!check.bash) {
    check.jail = { state: "not_checked", reason: "the read-only jail runs under bash, and there is none" };
    return { ok: true, check };
  }
  const jailed = await deps.runner.exec(target, "true", { ...options, jail: true });
  const run = jailed.jail;
  if (run?.state === "jailed") {
    check.jail = { state: "works", facts: run.facts };
    await recordJailDetection(deps.db, entity, { state: "available" }, now(), run.facts.engine);
  } else {
    const reason = run?.state === "failed" ? run.reason : jailed.stderr.trim() || "it did not report";
    const transient = run?.state === "failed" && run.kind === "transient";
    check.jail = { state: "cannot", transient, reason };
    if (!transient) await recordJailDetection(deps.db, entity, { state: "unavailable", reason }, now());
    return { ok: true, check };
  }
  for (const { grant, blinds } of PROBED_GRANTS) {
    const tried = await deps.runner.exec(target, "true", { ...options, jail: true, jailGrants: [grant] });
    const state = tried.jail;
    if (state?.state === "jailed") {
      check.grants.push({ grant, works: true, blinds });
      continue;
    }
    const reason = state?.state === "failed" ? state.reason : tried.stderr.trim() || "it did not report";
    check.grants.push({ grant, works: false, reason, blinds });
    if (state?.state === "failed" && state.kind === "grant") {
      // read again: each recorded grant adds to the entity's attribute
      const fresh = (await findEntity(deps.db, slug)) ?? entity;
      await recordGrantUnavailable(deps.db, fresh, { resource: state.resource ?? grant.resource, reason });
    }
  }
  return { ok: true, check };
}

function routeOf(target: Target): string {
  switch (target.transport) {
    case "ssh":
      return target.ssh ? `ssh ${target.ssh.username}@${target.ssh.host}:${target.ssh.port}` : "ssh";
    case "local":
      return "this machine";
    default:
      return `${target.transport} ${target.vmid ?? "?"} through ${target.via ? routeOf(target.via) : "its host"}`;
  }
}
