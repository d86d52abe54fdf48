import { sharedSymptom } from "../policy/runbook-match.ts";
import type { Db } from "../store/db.ts";
import { type FeedbackRow, feedbackSince } from "../store/feedback.ts";
import { type PatternKind, type TaskFacts, taskFacts, upsertPattern } from "../store/learning.ts";

/** Feedback older than this is not looked at. */
export const LEARN_WINDOW_MS = 30 * 24 * 60 * 60_000;
/** A root cause or fix seen this often is a pattern (and worth a runbook). */
export const MIN_OCCURRENCES = 2;

const STOP_WORDS = new Set([
  "the",
  "a",
  "an",
  "and",
  "or",
  "of",
  "on",
  "in",
  "to",
  "was",
  "is",
  "it",
  "for",
  "with",
  "by",
  "after",
  "at",
]);

/** Same cause in other words → same key: lower-case, stop words and numbers out, words sorted. */
export function patternKey(text: string): string {
  const words = text
    .toLowerCase()
    .replace(/[0-9]+/g, " ")
    .split(/[^a-z]+/)
    .filter((w) => w.length > 2 && !STOP_WORDS.has(w));
  return [...new Set(words)].sort().slice(0, 12).join(" ");
}

/** Word sets this similar (Jaccard) describe the same thing. */
const SIMILAR = 0.6;

function similarity(a: Set<string>, b: Set<string>): number {
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared / (a.size + b.size - shared);
}

/** The "what was done" part of a summary: its first sentence. */
function fixOf(notes: string): string {
  return notes.split(/(?<=[.!?])\s|\n/)[0]!.trim();
}

export interface LearnReport {
  feedback: number;
  patterns: { kind: PatternKind; key: string; occurrences: number; status: "created" | "updated" }[];
}

/**
 * The learning job: recent feedback → patterns. Recurring root causes and repeated fixes become rows
 * in `patterns` with a suggested runbook (title and outline) for the operator to accept.
 */
export async function learnFromFeedback(db: Db, now = new Date()): Promise<LearnReport> {
  const feedback = await feedbackSince(db, new Date(now.getTime() - LEARN_WINDOW_MS));
  const groups: { kind: PatternKind; words: Set<string>; rows: FeedbackRow[]; samples: string[] }[] = [];
  const add = (kind: PatternKind, text: string | null, row: FeedbackRow) => {
    if (!text?.trim()) return;
    const words = new Set(patternKey(text).split(" ").filter(Boolean));
    if (words.size === 0) return;
    const group = groups.find((g) => g.kind === kind && similarity(g.words, words) >= SIMILAR);
    if (group) {
      group.rows.push(row);
      group.samples.push(text.trim());
    } else {
      groups.push({ kind, words, rows: [row], samples: [text.trim()] });
    }
  };
  for (const row of feedback) {
    add("root_cause", row.rootCause, row);
    if (row.outcome === "success" && row.notes) add("fix", fixOf(row.notes), row);
  }
  const report: LearnReport = { feedback: feedback.length, patterns: [] };
  for (const group of groups) {
    // The shortest wording is the most general one, and a stable key across runs.
    const sample = [...group.samples].sort((a, b) => a.length - b.length || a.localeCompare(b))[0]!;
    const key = patternKey(sample);
    const sessions = new Set(group.rows.map((r) => r.sessionId));
    if (sessions.size < MIN_OCCURRENCES) continue;
    const lastSeenAt = new Date(Math.max(...group.rows.map((r) => r.createdAt.getTime())));
    const link = linkOf(await taskFacts(db, [...sessions]));
    const status = await upsertPattern(db, {
      kind: group.kind,
      key,
      description:
        group.kind === "root_cause"
          ? `Recurring root cause (${sessions.size} tasks): ${sample}`
          : `Repeated fix (${sessions.size} tasks): ${sample}`,
      occurrences: sessions.size,
      suggestedRunbook: suggestRunbook(group.kind, sample, group.rows, link),
      lastSeenAt,
      ...link,
    });
    report.patterns.push({ kind: group.kind, key, occurrences: sessions.size, status });
  }
  return report;
}

/**
 * What a pattern's runbook is linked to: the entities at least MIN_OCCURRENCES of its tasks touched
 * (their `involves` edges) and the symptom their goals share (policy/runbook-match.ts).
 */
function linkOf(tasks: TaskFacts[]): { entitySlugs: string[]; symptom: string[] } {
  const count = new Map<string, number>();
  for (const task of tasks) for (const slug of task.entities) count.set(slug, (count.get(slug) ?? 0) + 1);
  const needed = Math.min(MIN_OCCURRENCES, tasks.length);
  return {
    entitySlugs: [...count]
      .filter(([, n]) => n >= needed)
      .map(([slug]) => slug)
      .sort(),
    symptom: sharedSymptom(
      tasks.flatMap((t) => (t.goal ? [t.goal] : [])),
      MIN_OCCURRENCES,
    ),
  };
}

function suggestRunbook(
  kind: PatternKind,
  sample: string,
  rows: FeedbackRow[],
  link: { entitySlugs: string[]; symptom: string[] },
): string {
  const title = kind === "root_cause" ? `Runbook: when ${sample}` : `Runbook: ${sample}`;
  const linked =
    link.entitySlugs.length > 0
      ? `\nFor: ${link.entitySlugs.join(", ")}${link.symptom.length > 0 ? `, when a task says: ${link.symptom.join(" ")}` : ""}\n`
      : "";
  const seen = rows
    .slice(-5)
    .map((r) => `- session ${r.sessionId} (${r.outcome}): ${(r.notes ?? "").slice(0, 200)}`)
    .join("\n");
  return `${title}\n${linked}\nSeen in:\n${seen}\n\nWrite the steps that worked as a runbook (upsert_knowledge kind runbook) linked to the entities involved.`;
}
