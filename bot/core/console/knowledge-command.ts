import type { Db } from "../../../store/db.ts";
import { searchKnowledge, sessionsOfKnowledge } from "../../../store/knowledge.ts";
import { supersededEntries } from "../../../store/knowledge-supersede.ts";
import { type BotCommand, defineCommand } from "../bot-commands.ts";
import { text } from "../command-args.ts";
import { ago, short } from "./ago.ts";

const SHOWN = 10;

/** `!knowledge <query>`: the knowledge graph's full-text search, each hit linked to the task that wrote it. */
export function knowledgeCommand(db: Db, clock: () => Date = () => new Date()): BotCommand {
  return defineCommand({
    name: "knowledge",
    args: { query: text("query", 'words to look for (full-text, `"exact phrase"`, `-without`)') },
    summary: "search the knowledge graph: runbooks, investigations, documents",
    permission: "operator",
    examples: ["!knowledge nfs stale handle", "!knowledge gitea upgrade"],
    async run(ctx, { query }) {
      const now = clock();
      const { entries, hasMore } = await searchKnowledge(db, { query }, { offset: 0, limit: SHOWN });
      if (entries.length === 0) return `Nothing in the knowledge graph matches “${query}”.`;
      const slugs = entries.map((e) => e.slug);
      const sessions = await sessionsOfKnowledge(db, slugs);
      const older = await supersededEntries(db, slugs);
      const out = [`Knowledge matching “${query}” (${entries.length}${hasMore ? "+" : ""}):`];
      for (const k of entries) {
        const about = k.about.length > 0 ? ` about ${k.about.map((s) => `\`${s}\``).join(", ")}` : "";
        const from = sessions.find((s) => s.slug === k.slug);
        const link = from
          ? (ctx.threadLink(from.platform, from.room, from.thread) ?? `task ${from.id.slice(0, 8)}`)
          : null;
        out.push(
          `• ${k.kind}: ${k.title} (\`${k.slug}\`)${about}, ${ago(k.updatedAt, now)}${link ? ` · ${link}` : ""}`,
        );
        out.push(`    ${short(k.excerpt, 160)}`);
        const earlier = older.get(k.slug) ?? [];
        if (earlier.length > 0)
          out.push(
            `    replaces ${earlier.length} older ${earlier.length === 1 ? "entry" : "entries"} about the same: ${earlier.map((slug) => `\`${slug}\``).join(", ")}`,
          );
      }
      if (hasMore) out.push(`More entries match: narrow the query to see them.`);
      return out.join("\n");
    },
  });
}
