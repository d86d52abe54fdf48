import type { CommandIO } from "../command-module.ts";

export const description =
  "watch the agent work one recorded incident end to end: no model, no hosts, no network needed";
export const usage = [
  "oikos demo",
  "Replays a recorded incident (the WhatsApp bridge of a Matrix server stopped delivering) in the",
  "terminal chat: the agent researches read-only, proposes a plan, you approve it with +1, it changes",
  "and verifies the simulated host and reports in the thread. The host and the model's answers are",
  "simulated; everything else is oikos itself, on a temporary embedded database removed at the end.",
  "When stdin is not a terminal, the demo approves the plan on your behalf.",
].join("\n");

export async function run(_argv: string[], io: CommandIO): Promise<number> {
  // Loaded on demand: nothing imports demo/ statically, and `oikos help` stays light.
  const { runDemo } = await import("../../demo/run-demo.ts");
  const tty = Boolean((io.stdin as { isTTY?: boolean }).isTTY);
  return (await runDemo(io, { approver: tty ? "person" : "on-behalf" })).code;
}
