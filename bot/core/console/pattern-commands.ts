import type { Db } from "../../../store/db.ts";
import { findEntities } from "../../../store/entities.ts";
import { getKnowledge, knowledgeSlug, upsertKnowledge } from "../../../store/knowledge.ts";
import { listPatterns, type PatternRow } from "../../../store/learning.ts";
import { runbookUseBySlug } from "../../../store/runbooks.ts";
import { type BotCommand, type CommandCard, defineCommand } from "../bot-commands.ts";
import { type Card, clock } from "../card.ts";
import { short } from "./ago.ts";

const SHOWN = 10;

/** The runbook a pattern suggests: its first line is the title, the whole text the content. */
function suggestedRunbook(pattern: PatternRow): { title: string; content: string } | null {
  const text = pattern.suggestedRunbook?.trim();
  if (!text) return null;
  const title = text.split("\n")[0]!.trim().slice(0, 200);
  return title.length >= 3 ? { title, content: text } : null;
}

async function adoptedAs(db: Db, pattern: PatternRow): Promise<string | null> {
  const runbook = suggestedRunbook(pattern);
  if (!runbook) return null;
  const slug = knowledgeSlug(runbook.title);
  return (await getKnowledge(db, slug)) ? slug : null;
}

/** A pattern as a card: what recurs, how often, and (until adopted) ✅ to adopt its runbook. */
export async function patternCard(db: Db, pattern: PatternRow): Promise<Card> {
  const runbook = suggestedRunbook(pattern);
  const adopted = await adoptedAs(db, pattern);
  const card: Card = {
    kind: "notice",
    title: `💡 ${pattern.kind === "root_cause" ? "Recurring root cause" : "Repeated fix"}`,
    badge: `${pattern.occurrences} tasks`,
    lines: [
      short(pattern.description, 300),
      `last seen ${clock(pattern.lastSeenAt)} ${pattern.lastSeenAt.toISOString().slice(0, 10)}`,
    ],
  };
  if (runbook) card.lines.push(`suggested runbook: ${runbook.title}`);
  if (pattern.entitySlugs.length > 0)
    card.lines.push(
      `for ${pattern.entitySlugs.map((s) => `\`${s}\``).join(", ")}${pattern.symptom.length > 0 ? ` when a task says “${pattern.symptom.join(" ")}”` : ""}`,
    );
  if (adopted) {
    card.status = `✅ adopted as runbook \`${adopted}\`: the agent finds it when it searches`;
    const use = await runbookUseBySlug(db, adopted);
    if (use && use.offered > 0)
      card.lines.push(
        `offered to ${use.offered} task(s): ${use.outcomes.success} success, ${use.outcomes.partial} partial, ${use.outcomes.failure} failure`,
      );
  } else if (runbook) {
    card.hint =
      "React ✅ to adopt the suggested runbook into the knowledge graph (the agent then finds it first).";
    card.actions = [{ id: "approve", label: "Adopt runbook", style: "primary" }];
    card.reactions = ["✅"];
  }
  return card;
}

/** `!patterns`: what the learning job found, one card each, ✅ to adopt a suggested runbook. */
export function patternsCommand(db: Db): BotCommand {
  return defineCommand({
    name: "patterns",
    args: {},
    summary: "what the learning job found: recurring root causes and repeated fixes, ✅ adopts a runbook",
    permission: "operator",
    visibility: "room",
    async run() {
      const patterns = (await listPatterns(db)).slice(0, SHOWN);
      if (patterns.length === 0)
        return "The learning job has found no recurring root cause or repeated fix yet.";
      const cards: CommandCard[] = [];
      for (const pattern of patterns)
        cards.push({ card: await patternCard(db, pattern), kind: "pattern", subjectId: pattern.id });
      return { text: `Patterns the learning job found (${patterns.length}):`, cards };
    },
  });
}

export type AdoptResult = { status: "adopted" | "already"; slug: string; card: Card } | { status: "nothing" };

/** Writes a pattern's suggested runbook into the knowledge graph (audited as the operator's). */
export async function adoptPattern(db: Db, patternId: string, by: string): Promise<AdoptResult> {
  const pattern = (await listPatterns(db)).find((p) => p.id === patternId);
  const runbook = pattern && suggestedRunbook(pattern);
  if (!pattern || !runbook) return { status: "nothing" };
  const existing = await adoptedAs(db, pattern);
  if (existing) return { status: "already", slug: existing, card: await patternCard(db, pattern) };
  // Linked to the entities its tasks touched (those still in the graph) and their shared symptom, so it is
  // offered to the next task on them that says the same (store/runbooks.ts).
  const about = (await findEntities(db, pattern.entitySlugs)).map((e) => e.slug);
  const written = await upsertKnowledge(
    db,
    {
      title: runbook.title,
      content: runbook.content,
      kind: "runbook",
      about,
      tags: ["pattern", pattern.kind],
      ...(pattern.symptom.length > 0 ? { symptom: pattern.symptom } : {}),
    },
    { by },
  );
  if (written.status === "unknown_entities") return { status: "nothing" };
  return { status: "adopted", slug: written.slug, card: await patternCard(db, pattern) };
}
