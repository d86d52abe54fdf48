import { type BotCommand, defineCommand } from "./bot-commands.ts";
import { word } from "./command-args.ts";

/** What the schedule commands need of the schedules (intake/schedules/control.ts implements it). */
export interface ScheduleControl {
  list(): Promise<
    {
      name: string;
      cron: string;
      tz: string;
      platform: string;
      room: string;
      paused: { by: string | null; at: Date } | null;
      next: Date | null;
      last: { at: Date; outcome: string } | null;
    }[]
  >;
  pause(name: string, by: string): Promise<"changed" | "unchanged" | "unknown">;
  resume(name: string, by: string): Promise<"changed" | "unchanged" | "unknown">;
}

/** `!oikos schedules`, `!oikos schedules pause <name>`, `!oikos schedules resume <name>`. */
export function scheduleCommands(control: ScheduleControl): BotCommand[] {
  const list = defineCommand({
    name: "schedules",
    args: {},
    summary: "list the schedules with their next run",
    details: "Schedules come from `schedules` in oikos.yaml: a cron expression, a room and a prompt each.",
    permission: "operator",
    async run() {
      const schedules = await control.list();
      if (schedules.length === 0)
        return "No schedules are configured (`schedules` in oikos.yaml; see docs/alerts-and-schedules.md).";
      const lines = schedules.map((s) => {
        const when = s.paused
          ? `paused${s.paused.by ? ` by ${s.paused.by}` : ""} since ${utc(s.paused.at)}`
          : `next ${s.next ? utc(s.next) : "unknown"}`;
        const last = s.last
          ? `, last ${utc(s.last.at)} (${s.last.outcome.replaceAll("_", " ")})`
          : ", never ran";
        return `  ${s.name}  \`${s.cron}\` ${s.tz} → ${s.room}: ${when}${last}`;
      });
      return [`Schedules (${schedules.length}):`, ...lines].join("\n");
    },
  });
  const change = (verb: "pause" | "resume") =>
    defineCommand({
      name: `schedules ${verb}`,
      args: { name: word("name", "the schedule's name (see `!oikos schedules`)") },
      summary:
        verb === "pause" ? "stop a schedule from firing until resumed" : "let a paused schedule fire again",
      permission: "admin",
      examples: [`!oikos schedules ${verb} weekly-audit`],
      async run(ctx, { name }) {
        const result =
          verb === "pause" ? await control.pause(name, ctx.user) : await control.resume(name, ctx.user);
        if (result === "unknown") return `There is no schedule \`${name}\`; \`!oikos schedules\` lists them.`;
        if (result === "unchanged")
          return `Schedule \`${name}\` is already ${verb === "pause" ? "paused" : "running"}.`;
        return verb === "pause"
          ? `Schedule \`${name}\` paused: it will not fire until an admin resumes it (\`!oikos schedules resume ${name}\`).`
          : `Schedule \`${name}\` resumed.`;
      },
    });
  return [list, change("pause"), change("resume")];
}

function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
