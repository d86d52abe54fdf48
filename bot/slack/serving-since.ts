import type { Db } from "../../store/db.ts";
import { claimKv, getKv } from "../../store/kv.ts";

const KEY = "slack:serving_since";

/**
 * Since when this deployment serves Slack (epoch ms): `now` at the first start, kept in the kv
 * table. Slack sends no history, only redeliveries of events it could not hand over; those written
 * before oikos served Slack are history, those written while a later oikos was down are requests.
 */
export async function servingSince(db: Db, now: number): Promise<number> {
  await claimKv(db, KEY, now);
  const stored = Number(await getKv(db, KEY));
  return Number.isFinite(stored) && stored > 0 ? stored : now;
}
