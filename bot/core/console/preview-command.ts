import type { Db } from "../../../store/db.ts";
import { shownPreviewForConsole } from "../../../store/previews.ts";
import { type BotCommand, defineCommand } from "../bot-commands.ts";
import { previewMessage } from "../cards/preview-section.ts";
import { word } from "../command-args.ts";

/**
 * `!preview <approval>`: the whole preview an approval card showed (issue #37: a card out of room
 * shows each part in one line and names this command), every part in full, from the store.
 */
export function previewCommand(db: Db): BotCommand {
  return defineCommand({
    name: "preview",
    args: {
      approval: word("approval", "the approval id (its card names it), or its first 8 characters or more"),
    },
    summary: "the full plan preview an approval card showed: every part of the line",
    permission: "operator",
    examples: ["!preview 3f2a9c1e"],
    async run(ctx, { approval }) {
      const found = await shownPreviewForConsole(db, approval);
      if (found && "ambiguous" in found) {
        return `\`${approval}\` matches ${found.ambiguous.length} approvals (${found.ambiguous.join(", ")}); give more characters.`;
      }
      const inThisRoom = found?.platform === ctx.platform && found?.room === ctx.room;
      if (!found || (!ctx.fleetWide && !inThisRoom)) {
        return `There is no approval \`${approval}\` with a preview${ctx.fleetWide ? "" : " in this room"}.`;
      }
      return previewMessage(found.preview.preview, found.command ?? "?", found.target ?? "?");
    },
  });
}
