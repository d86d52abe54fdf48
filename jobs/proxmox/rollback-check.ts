import { type ListedSnapshot, rollbackPossibility } from "../../policy/rollback-possible.ts";
import type { Db } from "../../store/db.ts";
import { findEntity } from "../../store/entities.ts";
import { readExecutionSnapshot, type TakenSnapshot } from "../../store/execution-snapshot.ts";
import { executionsWithSnapshot } from "../../store/executions.ts";
import { snapshotListSchema } from "../../store/import/proxmox-api.ts";
import type { Target } from "../ssh/target.ts";
import { type NodeRunner, readOnNode } from "./node-runner.ts";
import { pveshGet } from "./read-cluster.ts";
import { recordedDisks } from "./snapshot-before.ts";

/**
 * Before a rollback is offered for confirmation: would Proxmox (or ZFS) refuse it? Reads the guest's
 * snapshots through its node (or the datasets' on the host) and asks policy/rollback-possible.ts.
 * Returns null when it can go ahead (or the list could not be read: then the rollback itself says),
 * else the reason with what the operator can do instead — roll back to the newest snapshot (when oikos
 * took it: the execution to ask for), or remove the newer ones first, their decision.
 */
export async function rollbackRefusal(
  deps: { db: Db; runner: NodeRunner },
  snapshot: TakenSnapshot,
  runOn: Target,
): Promise<string | null> {
  const read = (command: string) => readOnNode(deps.runner, runOn, command);
  try {
    if (snapshot.tool === "zfs") {
      const text = await read(`zfs list -H -p -t snapshot -o name,creation ${snapshot.datasets.join(" ")}`);
      for (const dataset of snapshot.datasets) {
        const listed: ListedSnapshot[] = text
          .split("\n")
          .map((line) => line.split("\t"))
          .filter(([full]) => full?.startsWith(`${dataset}@`))
          .map(([full, creation]) => ({ name: full!.slice(dataset.length + 1), takenAt: Number(creation) }));
        const verdict = rollbackPossibility({
          snapshot: snapshot.name,
          storageTypes: ["zfs"],
          listed,
          subject: dataset,
        });
        if (!verdict.possible)
          return withOffer(deps.db, snapshot, verdict, (name) => `zfs destroy ${dataset}@${name}`);
      }
      return null;
    }
    const guest = await findEntity(deps.db, snapshot.guest);
    const node = guest?.attributes["proxmox.node"];
    if (!guest || typeof node !== "string") return null;
    const kind = snapshot.tool === "pct" ? "lxc" : "qemu";
    const listed = await pveshGet(
      read,
      `/nodes/${node}/${kind}/${snapshot.vmid}/snapshot`,
      snapshotListSchema,
    );
    const verdict = rollbackPossibility({
      snapshot: snapshot.name,
      storageTypes: recordedDisks(guest).map((disk) => disk.storageType),
      listed: listed.map((s) => ({
        name: s.name,
        ...(s.snaptime === undefined ? {} : { takenAt: s.snaptime }),
        ...(s.parent === undefined ? {} : { parent: s.parent }),
      })),
      subject: snapshot.guest,
    });
    if (verdict.possible) return null;
    return withOffer(
      deps.db,
      snapshot,
      verdict,
      (name) => `${snapshot.tool} delsnapshot ${snapshot.vmid} ${name}`,
    );
  } catch {
    return null;
  }
}

async function withOffer(
  db: Db,
  snapshot: TakenSnapshot,
  verdict: Exclude<ReturnType<typeof rollbackPossibility>, { possible: true }>,
  removal: (name: string) => string,
): Promise<string> {
  if (verdict.code === "missing") return verdict.reason;
  const offers: string[] = [];
  const newestOfOurs = await executionOfSnapshot(db, snapshot, verdict.newest);
  if (newestOfOurs)
    offers.push(
      `roll back to the newest, ${verdict.newest} (taken before execution ${newestOfOurs}): \`!oikos rollback ${newestOfOurs}\` or ⏪ on its card`,
    );
  else
    offers.push(
      `the newest snapshot, ${verdict.newest}, is not one oikos took: roll back to it yourself if that is what you want`,
    );
  offers.push(
    `or remove the newer snapshots first (${verdict.newer.map((name) => `\`${removal(name)}\``).join(", ")} — your decision: they are gone for good), then ask again`,
  );
  return `${verdict.reason}. What is possible: ${offers.join("; ")}`;
}

/** The execution whose recorded, still-present snapshot of the same guest (or datasets) is `name`. */
async function executionOfSnapshot(db: Db, like: TakenSnapshot, name: string): Promise<string | null> {
  for (const row of await executionsWithSnapshot(db)) {
    const snapshot = readExecutionSnapshot(row.snapshot);
    if (snapshot?.state !== "taken" || snapshot.name !== name || snapshot.removedAt || snapshot.rolledBackAt)
      continue;
    const same =
      snapshot.tool === "zfs" && like.tool === "zfs"
        ? snapshot.host === like.host && snapshot.datasets.some((d) => like.datasets.includes(d))
        : snapshot.tool !== "zfs" && like.tool !== "zfs" && snapshot.guest === like.guest;
    if (same) return row.id;
  }
  return null;
}
