import { routingAttributesIn } from "../../../policy/routing.ts";
import type { Db } from "../../../store/db.ts";
import {
  ENTITY_STATES,
  ENTITY_TRANSPORTS,
  type EntityInput,
  entitySlugSchema,
  findEntity,
  SECRET_ATTRIBUTE_KEY,
  upsertEntities,
} from "../../../store/entities.ts";
import { deleteRetiredEntity, setEntityState } from "../../../store/entity-admin.ts";
import type { EntityState, EntityTransport } from "../../../store/statuses.ts";
import { type BotCommand, defineCommand } from "../bot-commands.ts";
import { choice, pairs, word } from "../command-args.ts";

// Admins edit the graph from chat; every write is audited with who did it. Routing keys (how a
// command reaches the entity) are the operator's to set, so an admin may, and the audit says so.

/** `!entity add <slug> [name=… state=… transport=… parent=… key=value …]`. */
export function entityAddCommand(db: Db): BotCommand {
  return defineCommand({
    name: "entity add",
    args: {
      slug: word("slug", "type:name, e.g. `lxc:grafana`; the type is the part before the colon"),
      fields: pairs("`name=`, `state=`, `transport=`, `parent=`, and any facts as key=value"),
    },
    summary: "add an entity to the knowledge graph",
    details: `States: ${ENTITY_STATES.join(", ")}. Transports: ${ENTITY_TRANSPORTS.join(", ")}. Secrets never go in (the graph is model context).`,
    permission: "admin",
    examples: ['!entity add lxc:grafana name="Grafana" parent=host:pve1 transport=pct-exec vmid=112'],
    async run(ctx, { slug, fields }) {
      const parsedSlug = entitySlugSchema.safeParse(slug);
      if (!parsedSlug.success) return `\`${slug}\`: ${parsedSlug.error.issues[0]?.message}.`;
      if (await findEntity(db, slug)) return `\`${slug}\` exists already. \`!entity ${slug}\` shows it.`;
      const { name, state, transport, parent, ...attributes } = fields;
      const secrets = Object.keys(attributes).filter((k) => SECRET_ATTRIBUTE_KEY.test(k));
      if (secrets.length > 0)
        return `Not added: ${secrets.join(", ")} look like secrets, and the knowledge graph is model context. Keep them in the SSH agent or a secret store.`;
      if (state !== undefined && !(ENTITY_STATES as readonly string[]).includes(state))
        return `state: use one of ${ENTITY_STATES.join(", ")}.`;
      if (transport !== undefined && !(ENTITY_TRANSPORTS as readonly string[]).includes(transport))
        return `transport: use one of ${ENTITY_TRANSPORTS.join(", ")}.`;
      const input: EntityInput = {
        slug,
        type: slug.slice(0, slug.indexOf(":")),
        name: name ?? slug.slice(slug.indexOf(":") + 1),
        attributes,
        ...(state ? { state: state as EntityState } : {}),
        ...(transport ? { transport: transport as EntityTransport } : {}),
        ...(parent ? { parentSlug: parent } : {}),
      };
      const result = await upsertEntities(db, [input], { by: ctx.user });
      const failed = result.failed[0];
      if (failed) return `Not added: ${failed.reason}.`;
      const routing = routingAttributesIn([...Object.keys(fields)]);
      return `Added \`${slug}\` (${input.type}, ${input.state ?? "active"})${routing.length > 0 ? `; routing set: ${routing.join(", ")}` : ""}. Audited as yours.`;
    },
  });
}

/** `!entity state <slug> <state>`. */
export function entityStateCommand(db: Db): BotCommand {
  return defineCommand({
    name: "entity state",
    args: {
      slug: word("slug", "the entity"),
      state: choice(ENTITY_STATES, "its new state (`destroyed` = retired: nothing runs on it)"),
    },
    summary: "set an entity's state",
    permission: "admin",
    examples: ["!entity state lxc:gitea stopped"],
    run: async (ctx, { slug, state }) =>
      stateAnswer(slug, await setEntityState(db, slug, state, { by: ctx.user })),
  });
}

/** `!entity retire <slug>`: state destroyed; nothing runs on it any more, and listings hide it. */
export function entityRetireCommand(db: Db): BotCommand {
  return defineCommand({
    name: "entity retire",
    args: { slug: word("slug", "the entity") },
    summary: "retire an entity (state destroyed: nothing runs on it, listings hide it)",
    permission: "admin",
    examples: ["!entity retire lxc:old-wiki"],
    run: async (ctx, { slug }) =>
      stateAnswer(slug, await setEntityState(db, slug, "destroyed", { by: ctx.user })),
  });
}

function stateAnswer(slug: string, result: Awaited<ReturnType<typeof setEntityState>>): string {
  switch (result.status) {
    case "unknown":
      return `There is no entity \`${slug}\`. \`!entities\` lists them.`;
    case "unchanged":
      return `\`${slug}\` is ${result.state} already.`;
    case "changed":
      return `\`${slug}\`: ${result.from} → ${result.to}${result.to === "destroyed" ? " (retired: nothing runs on it any more)" : ""}. Audited as yours.`;
  }
}

/** `!entity delete <slug>`: only a retired entity, with everything it linked kept in the audit row. */
export function entityDeleteCommand(db: Db): BotCommand {
  return defineCommand({
    name: "entity delete",
    args: { slug: word("slug", "a retired entity") },
    summary: "delete a retired entity and its links (the audit log keeps a copy)",
    permission: "admin",
    async run(ctx, { slug }) {
      const result = await deleteRetiredEntity(db, slug, { by: ctx.user });
      switch (result.status) {
        case "unknown":
          return `There is no entity \`${slug}\`.`;
        case "not_retired":
          return `\`${slug}\` is ${result.state}: retire it first (\`!entity retire ${slug}\`), then delete it.`;
        case "has_children":
          return `\`${slug}\` still holds ${result.children.map((c) => `\`${c}\``).join(", ")}: retire and delete those first.`;
        case "deleted":
          return `Deleted \`${slug}\` with ${result.relationships} relationship(s) and ${result.knowledgeLinks} knowledge link(s); the audit log keeps a copy.`;
      }
    },
  });
}
