import { clock } from "../card.ts";

/** "12 min ago", "3 h ago", "2 d ago": how long since, for listings read at a glance. */
export function ago(since: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/**
 * "in 25 s", "in 12 min", "in 3 h": how long until, never more than what is left (whole units
 * rounded down); seconds below two minutes, where a minute rounded would say 1 with 25 s to go.
 */
export function inTime(until: Date, now: Date): string {
  const ms = until.getTime() - now.getTime();
  if (ms <= 0) return "now";
  if (ms < 120_000) return `in ${Math.ceil(ms / 1000)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 120) return `in ${minutes} min`;
  return `in ${Math.floor(minutes / 60)} h`;
}

/** "14:02 UTC (12 min ago)" today; the date too when older than a day. */
export function when(at: Date, now: Date): string {
  const sameDay = now.getTime() - at.getTime() < 24 * 3_600_000;
  const time = sameDay ? clock(at) : `${at.toISOString().slice(0, 10)} ${clock(at)}`;
  return `${time} (${ago(at, now)})`;
}

/** Shortens one line of free text (a goal, a command) for a listing. */
export function short(text: string | null | undefined, max = 70): string {
  const one = (text ?? "").replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
