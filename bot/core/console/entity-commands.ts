import { closeMatches } from "../../../policy/close-matches.ts";
import { jailStatusLine } from "../../../policy/jail.ts";
import type { Db } from "../../../store/db.ts";
import { attributeChangedAt, findEntity, listEntitySlugs } from "../../../store/entities.ts";
import { entityNeighbourhood } from "../../../store/entity-neighbourhood.ts";
import {
  entitySelector,
  lastTouched,
  recentExecutionsOn,
  selectEntities,
} from "../../../store/entity-views.ts";
import { entityKnowledge } from "../../../store/knowledge.ts";
import { getRelations } from "../../../store/relationships.ts";
import { entitiesTouchedBy, tasksThatTouched } from "../../../store/task-graph.ts";
import { type BotCommand, defineCommand } from "../bot-commands.ts";
import { optionalWord, word } from "../command-args.ts";
import { riskBadge } from "../risk-badge.ts";
import { ago, short, when } from "./ago.ts";
import { neighbourhoodLines, recentTaskLines } from "./entity-history.ts";

const SHOWN_ATTRIBUTES = 25;

/** `!entity <slug>`: facts with their age, relationships, state, recent executions, knowledge. */
export function entityCommand(db: Db, clock: () => Date = () => new Date()): BotCommand {
  return defineCommand({
    name: "entity",
    args: { slug: word("slug", "the entity, e.g. `lxc:gitea` or `host:nas`") },
    summary:
      "one entity: facts, its neighbourhood (owners, what runs on it), relationships, recent executions, the last tasks that touched it, knowledge and runbooks",
    permission: "operator",
    examples: ["!entity lxc:gitea"],
    async run(_ctx, { slug }) {
      const now = clock();
      const entity = await findEntity(db, slug);
      if (!entity) return unknownEntityText(db, slug);
      const out = [
        `\`${entity.slug}\` — ${entity.name} (${entity.type}), state ${entity.state}, reached by ${entity.transport}${entity.parent_slug ? ` via \`${entity.parent_slug}\`` : ""}`,
      ];
      out.push(jailStatusLine(entity.slug, entity.attributes, now));
      if (entity.discovered_at)
        out.push(
          `Discovered ${ago(entity.discovered_at, now)}${entity.last_seen_at ? `, last seen ${ago(entity.last_seen_at, now)}` : ""}${entity.stale_since ? `; stale: not seen since ${ago(entity.stale_since, now)}` : ""}`,
        );
      out.push(...neighbourhoodLines(slug, await entityNeighbourhood(db, slug)));
      const touched = (await lastTouched(db, [slug])).get(slug);
      if (touched?.ranAt)
        out.push(`Last audited ${when(touched.ranAt, now)}: \`${short(touched.ranCommand, 60)}\``);
      const changedAt = await attributeChangedAt(db, slug);
      const facts = Object.entries(entity.attributes);
      if (facts.length > 0) {
        out.push(`Facts (${facts.length}):`);
        for (const [key, value] of facts.slice(0, SHOWN_ATTRIBUTES)) {
          const age = changedAt[key] ?? entity.updated_at;
          out.push(`  ${key} = ${short(JSON.stringify(value), 80)}  (${ago(age, now)})`);
        }
        if (facts.length > SHOWN_ATTRIBUTES) out.push(`  … ${facts.length - SHOWN_ATTRIBUTES} more`);
      } else out.push("Facts: none recorded.");
      // the tasks' `involves` edges are listed as recent tasks below
      const relations = (
        await getRelations(db, slug, { direction: "both" }, { offset: 0, limit: 60 })
      ).relations
        .filter((r) => r.type !== "involves")
        .slice(0, 30);
      if (relations.length > 0) {
        out.push(`Relationships (${relations.length}):`);
        for (const r of relations) out.push(`  \`${r.source}\` ${r.type} \`${r.target}\``);
      }
      const runs = await recentExecutionsOn(db, slug);
      if (runs.length > 0) {
        out.push("Recent executions:");
        for (const e of runs) {
          const exit = e.exit_code !== null ? `, exit ${e.exit_code}` : "";
          out.push(
            `  ${riskBadge(e.risk)} \`${short(e.command, 60)}\` — ${e.status}${exit}, ${ago(e.created_at, now)}`,
          );
        }
      }
      if (entity.type !== "task") out.push(...recentTaskLines(await tasksThatTouched(db, slug), now));
      else {
        const session = typeof entity.attributes.session === "string" ? entity.attributes.session : "";
        const touched = await entitiesTouchedBy(db, session);
        out.push(
          `Touched (${touched.length}): ${touched.map((t) => `\`${t}\``).join(", ") || "nothing"} — \`!task ${session}\``,
        );
      }
      const { entries } = await entityKnowledge(db, slug, { offset: 0, limit: 10 });
      if (entries.length > 0) {
        out.push("Knowledge:");
        for (const k of entries)
          out.push(`  ${k.kind}: ${k.title} (\`${k.slug}\`, ${ago(k.updatedAt, now)})`);
      }
      return out.join("\n");
    },
  });
}

async function unknownEntityText(db: Db, slug: string): Promise<string> {
  const near = closeMatches(slug, await listEntitySlugs(db));
  return `There is no entity \`${slug}\`.${near.length > 0 ? ` Did you mean ${near.map((s) => `\`${s}\``).join(", ")}?` : ""} \`!entities\` lists them.`;
}

/** `!entities [type|tag|state]`: the graph at a glance, by one word. */
export function entitiesCommand(db: Db): BotCommand {
  return defineCommand({
    name: "entities",
    args: {
      filter: optionalWord(
        "type|tag|state",
        "a type (`lxc`), a group or tag (`web`), or a state (`retired`)",
      ),
    },
    summary: "list entities by type, group/tag or state",
    permission: "operator",
    examples: ["!entities", "!entities lxc", "!entities retired"],
    async run(_ctx, { filter }) {
      const selector = await entitySelector(db, filter);
      const entities = await selectEntities(db, selector);
      const what =
        selector.by === "all"
          ? ""
          : ` (${selector.by} ${selector.by === "state" ? selector.state : selector.by === "type" ? selector.type : selector.group})`;
      if (entities.length === 0) return `No entities${what}.`;
      const lines = entities.map(
        (e) =>
          `  \`${e.slug}\` — ${e.name}${e.state === "active" ? "" : ` [${e.state}]`}${e.stale_since ? " [stale]" : e.discovered_at ? " [discovered]" : ""}${e.parent_slug ? ` on \`${e.parent_slug}\`` : ""}`,
      );
      return [
        `Entities${what}: ${entities.length}${entities.length >= 50 ? " (first 50)" : ""}`,
        ...lines,
      ].join("\n");
    },
  });
}
