import type { Neighbourhood, NeighbourNode } from "../../../store/entity-neighbourhood.ts";
import type { TaskThatTouched } from "../../../store/task-graph.ts";
import { ago, short } from "./ago.ts";

/** The neighbourhood as a compact tree: the owners above, what runs on or is part of it below. */
export function neighbourhoodLines(slug: string, hood: Neighbourhood): string[] {
  if (hood.ancestors.length === 0 && hood.children.length === 0) return [];
  const chain = [...hood.ancestors].reverse().map((s) => `\`${s}\``);
  const out = [`Tree: ${[...chain, `**\`${slug}\`**`].join(" › ")}`];
  const walk = (nodes: NeighbourNode[], indent: string): void => {
    nodes.forEach((node, i) => {
      const last = i === nodes.length - 1;
      const marks = [node.state === "active" ? "" : node.state, node.stale ? "stale" : ""].filter(Boolean);
      out.push(
        `${indent}${last ? "└" : "├"} \`${node.slug}\`${marks.length > 0 ? ` [${marks.join(", ")}]` : ""}`,
      );
      walk(node.children, `${indent}${last ? "  " : "│ "}`);
    });
  };
  walk(hood.children, "  ");
  if (hood.truncated) out.push("  … more below (`!entity <child>` shows each)");
  return out;
}

const OUTCOME_MARK = { success: "✅", partial: "🟡", failure: "❌" } as const;

/** The last tasks that touched the entity: how each ended and the knowledge it wrote. */
export function recentTaskLines(tasks: readonly TaskThatTouched[], now: Date): string[] {
  if (tasks.length === 0) return [];
  const out = [`Recent tasks (${tasks.length}):`];
  for (const t of tasks) {
    const ended = t.outcome ? `${OUTCOME_MARK[t.outcome]} ${t.outcome}` : `⏳ ${t.status}`;
    out.push(
      `  ${ended} — ${short(t.goal ?? "(no goal)", 80)} (\`!task ${t.sessionId}\`, ${t.touches} touch${t.touches === 1 ? "" : "es"}, ${ago(t.lastTouchedAt, now)})`,
    );
    if (t.knowledge.length > 0)
      out.push(`    wrote: ${t.knowledge.map((k) => `${k.kind} \`${k.slug}\``).join(", ")}`);
  }
  return out;
}
