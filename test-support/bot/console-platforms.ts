import type { RoomAccessConfig } from "../../bot/core/access.ts";
import { MatrixDouble } from "../matrix-double/matrix-double.ts";
import { type ChatHarness, createChatHarness } from "./chat-harness.ts";
import { eventually } from "./eventually.ts";
import { startMatrixBot } from "./matrix-bot.ts";
import { type SlackBot, startSlackBot } from "./slack-bot.ts";
import { attachTerminal } from "./terminal-chat.ts";

export type Platform = "matrix" | "slack" | "shell";
export type Who = "admin" | "operator" | "stranger";
export const PLATFORMS: readonly Platform[] = ["matrix", "slack", "shell"];

const USERS: Record<Platform, Record<Who, string>> = {
  matrix: { admin: "@alice:double.test", operator: "@bob:double.test", stranger: "@mallory:double.test" },
  slack: { admin: "U0ALICE", operator: "U0BOB", stranger: "U0MALLORY" },
  shell: { admin: "alice", operator: "bob", stranger: "mallory" },
};
const MATRIX_BOT = "@oikos:double.test";
export const SLACK_CHANNEL = "C0OPS";

/**
 * One chat core with no model configured, reached through the Matrix double, the Slack double
 * (HTTP mode, `/oikos …`) and the terminal: `ask` types a command as an admin, an operator or a
 * stranger on one platform and returns the bot's answer as that platform delivered it.
 */
export interface ConsolePlatforms {
  h: ChatHarness;
  matrix: { double: MatrixDouble; room: string };
  slack: SlackBot;
  terminalOutput(): string;
  user(platform: Platform, who: Who): string;
  room(platform: Platform): string;
  ask(platform: Platform, who: Who, text: string): Promise<string>;
  close(): Promise<void>;
}

export async function startConsolePlatforms(
  options: {
    /** More access rules (per room, mentions), given the Matrix room id once it exists. */
    access?: (matrixRoom: string) => Partial<RoomAccessConfig>;
  } = {},
): Promise<ConsolePlatforms> {
  const admins = PLATFORMS.map((p) => USERS[p].admin);
  const operators = PLATFORMS.map((p) => USERS[p].operator);
  const double = await MatrixDouble.start();
  const botToken = double.registerUser(MATRIX_BOT);
  for (const who of Object.values(USERS.matrix)) double.registerUser(who);
  const room = double.createRoom({
    creator: USERS.matrix.admin,
    members: [USERS.matrix.operator, USERS.matrix.stranger],
  });
  double.invite(room, USERS.matrix.admin, MATRIX_BOT);
  const h = await createChatHarness(
    { operators, admins, ...options.access?.(room) },
    { modelConfigured: false },
  );
  const matrixAdapter = await startMatrixBot(h, double, {
    accessToken: botToken,
    rooms: [room],
    allowedInviters: [USERS.matrix.admin],
  });
  const slack = await startSlackBot({
    mode: "http",
    access: { operators, admins },
    channels: [SLACK_CHANNEL],
    harness: h,
    before: (d) => d.addChannel(SLACK_CHANNEL, { members: Object.values(USERS.slack) }),
  });
  const { terminal, output, take } = await attachTerminal(h);

  const ask = async (platform: Platform, who: Who, text: string): Promise<string> => {
    const user = USERS[platform][who];
    if (platform === "matrix") {
      const before = double.sentBy(MATRIX_BOT).length;
      double.message(user, room, text.startsWith("!") ? text : `!oikos ${text}`);
      const answer = await eventually(`matrix answer to ${text}`, () => double.sentBy(MATRIX_BOT)[before]);
      return String(answer.content.body);
    }
    if (platform === "slack") {
      const before = slack.double.responses.length;
      await slack.double.slashCommand(user, SLACK_CHANNEL, "/oikos", text.replace(/^!(oikos )?/, ""));
      const answer = await eventually(`slack answer to ${text}`, () => slack.double.responses[before]);
      return answer.text;
    }
    await terminal.send(`!as ${user}`);
    take();
    await terminal.send(text.startsWith("!") ? text : `!${text}`);
    return output();
  };

  return {
    h,
    matrix: { double, room },
    slack,
    terminalOutput: output,
    user: (platform, who) => USERS[platform][who],
    room: (platform) => (platform === "matrix" ? room : platform === "slack" ? SLACK_CHANNEL : "terminal"),
    ask,
    async close() {
      await terminal.stop();
      await slack.close();
      await matrixAdapter.stop();
      await h.close();
      await double.close();
    },
  };
}
