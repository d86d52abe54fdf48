import type { Db } from "../../store/db.ts";
import { findEntity } from "../../store/entities.ts";
import {
  changeRouting,
  describeRouting,
  parseRoutingWords,
  routingView,
} from "../../store/routing-change.ts";
import { type BotCommand, defineCommand } from "./bot-commands.ts";
import { text, word } from "./command-args.ts";

/**
 * `!oikos routing <slug> [key=value …]`: shows or changes where an entity's commands go. Routing is
 * the operator's (the agent's update_entity_attributes refuses it), so this is for fleet-wide
 * admins only; every change is audited as routing_changed, and executions approved for the old
 * routing are refused by the worker.
 */
export function routingCommand(db: Db): BotCommand {
  return defineCommand({
    name: "routing",
    args: {
      slug: word("slug", "the entity, e.g. lxc:gitea"),
      changes: text("key=value", "routing keys to set; an empty value removes one", { optional: true }),
    },
    summary: "show or change where an entity's commands go",
    details:
      "Keys: transport (ssh | pct-exec | qm-guest-exec | local | none), parent, ssh.host, ssh.port, ssh.user, vmid, " +
      "proxmox.vmid/node/host, jail. Fleet-wide admins only; audited; approved executions for the old routing will not run.",
    examples: ["!oikos routing lxc:gitea", "!oikos routing host:nas ssh.host=10.0.0.12 ssh.port=2222"],
    permission: "admin",
    async run(ctx, { slug, changes }) {
      if (!changes) {
        const entity = await findEntity(db, slug);
        return entity
          ? `\`${slug}\`: ${describeRouting(routingView(entity))}`
          : `There is no entity \`${slug}\`.`;
      }
      if (!ctx.fleetWide) return "Only a fleet-wide admin (chat.admins) can change routing.";
      const patch = parseRoutingWords(changes.split(" "));
      if ("error" in patch) return `Not changed: ${patch.error}.`;
      const result = await changeRouting(db, slug, patch, { by: ctx.user });
      if (!result.ok) return `Not changed: ${result.reason}.`;
      if (!result.changed) return `\`${slug}\` unchanged: ${describeRouting(result.after)}`;
      return [
        `\`${slug}\` re-routed (audited).`,
        `was: ${describeRouting(result.before)}`,
        `now: ${describeRouting(result.after)}`,
        "Executions approved before this change will not run.",
      ].join("\n");
    },
  });
}
