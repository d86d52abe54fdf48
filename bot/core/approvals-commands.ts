import { quorumLine } from "../../policy/quorum.ts";
import { quorumStanding } from "../../store/approval-votes.ts";
import { getApproval, listPendingApprovals } from "../../store/approvals.ts";
import type { Db } from "../../store/db.ts";
import { endStandingGrant, getStandingGrant, listLiveGrants } from "../../store/standing-grants.ts";
import { type BotCommand, type CommandContext, defineCommand } from "./bot-commands.ts";
import { day } from "./cards/grant-lines.ts";
import { choice, optionalWord } from "./command-args.ts";

// `!approvals` (issue #32): what waits for a decision and which standing grants (♾️) are live, and
// `revoke <grant>` to end one. People named only for a room see and revoke that room's; fleet-wide
// people every room's (CommandContext.fleetWide). `!grants` is the same for the grants alone.

const ACTIONS = ["list", "grants", "revoke"] as const;

function roomOf(ctx: CommandContext) {
  return ctx.fleetWide ? undefined : { platform: ctx.platform, room: ctx.room };
}

async function pendingText(db: Db, ctx: CommandContext): Promise<string> {
  const rows = await listPendingApprovals(db, roomOf(ctx));
  if (rows.length === 0) return "No pending approvals.";
  const lines = await Promise.all(
    rows.map(async (r) => {
      const what = r.command ? `\`${r.command}\` on \`${r.target ?? "?"}\`` : r.subject;
      const expires = new Date(r.expires_at).toISOString().slice(11, 16);
      // who can still decide, where a quorum is under way (policy/quorum.ts)
      const approval = await getApproval(db, r.id);
      const standing = approval ? await quorumStanding(db, approval) : null;
      const quorum = standing ? `  ${quorumLine(standing.have, standing.need, standing.waitingFor)}` : "";
      return `  ${r.id}  ${what}  [${r.risk ?? "?"}]  execution ${r.execution_id ?? "-"}, expires ${expires} UTC${quorum}`;
    }),
  );
  return [`Pending approvals (${rows.length}):`, ...lines].join("\n");
}

async function grantsText(db: Db, ctx: CommandContext): Promise<string> {
  const rows = await listLiveGrants(db, roomOf(ctx), new Date());
  if (rows.length === 0) return "No standing grants (♾️).";
  const lines = rows.map((g) => {
    const used = g.uses === 1 ? "used once" : `used ${g.uses} times`;
    return `  ${g.id}  \`${g.command}\` on \`${g.target}\`  [${g.risk}]  by ${g.granted_by}, until ${day(g.expires_at)}, ${used}`;
  });
  return [`Standing grants (${rows.length}) — \`!approvals revoke <id>\` ends one:`, ...lines].join("\n");
}

async function revoke(db: Db, ctx: CommandContext, id: string | undefined): Promise<string> {
  if (!id) return "Usage: `!approvals revoke <grant id>` (see `!approvals grants`).";
  const grant = await getStandingGrant(db, id);
  const inThisRoom = grant?.platform === ctx.platform && grant?.room === ctx.room;
  if (!grant || (!ctx.fleetWide && !inThisRoom))
    return `There is no standing grant \`${id}\` in this room: \`!approvals grants\` lists the ones here.`;
  const ended = await endStandingGrant(db, id, { by: ctx.user, reason: "revoked", now: new Date() });
  if (!ended) return `Standing grant \`${id}\` had already ended.`;
  return `Standing grant \`${id}\` revoked: \`${ended.command}\` on \`${ended.target}\` asks again from now on.`;
}

/** `!approvals [list|grants|revoke <grant>]`: pending approvals and standing grants; revoke one. */
export function approvalsCommand(db: Db): BotCommand {
  return defineCommand({
    name: "approvals",
    args: {
      action: choice(ACTIONS, "list (default): pending approvals and standing grants", "list"),
      id: optionalWord("grant", "the grant to revoke (g-…)"),
    },
    summary: "list pending approvals and standing grants (♾️); revoke a grant",
    permission: "operator",
    async run(ctx, { action, id }) {
      if (action === "revoke") return revoke(db, ctx, id);
      if (action === "grants") return grantsText(db, ctx);
      return `${await pendingText(db, ctx)}\n${await grantsText(db, ctx)}`;
    },
  });
}

/** `!grants [revoke <grant>]`: the standing grants alone. */
export function grantsCommand(db: Db): BotCommand {
  return defineCommand({
    name: "grants",
    args: {
      action: choice(["list", "revoke"] as const, "list (default), or revoke a grant", "list"),
      id: optionalWord("grant", "the grant to revoke (g-…)"),
    },
    summary: "list standing grants (♾️); revoke one",
    permission: "operator",
    async run(ctx, { action, id }) {
      return action === "revoke" ? revoke(db, ctx, id) : grantsText(db, ctx);
    },
  });
}
