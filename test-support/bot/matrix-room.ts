import type { RoomAccessConfig } from "../../bot/core/access.ts";
import type { MatrixAdapter } from "../../bot/matrix/matrix-adapter.ts";
import { MatrixDouble } from "../matrix-double/matrix-double.ts";
import { type ChatHarness, createChatHarness } from "./chat-harness.ts";
import { startMatrixBot } from "./matrix-bot.ts";

export const MATRIX_BOT = "@oikos:double.test";

/** One Matrix room on the homeserver double with the real adapter in it, wired to a chat harness. */
export interface MatrixRoom {
  double: MatrixDouble;
  h: ChatHarness;
  adapter: MatrixAdapter;
  room: string;
  /** The plain-text bodies of every event the bot sent, in order. */
  bodies(): string[];
  close(): Promise<void>;
}

/**
 * Registers the bot and `users`, creates a room whose creator is the first user (who invites the
 * bot and is the one allowed inviter) with `room`'s state, builds a chat harness with `access` and `harness` options
 * and starts the Matrix adapter in that room.
 */
export async function startMatrixRoom(options: {
  users: [string, ...string[]];
  access: RoomAccessConfig;
  harness?: Parameters<typeof createChatHarness>[1];
  /** The room's own state beyond its creator: power levels, members already joined. */
  room?: Omit<Parameters<MatrixDouble["createRoom"]>[0], "creator">;
}): Promise<MatrixRoom> {
  const [creator] = options.users;
  const double = await MatrixDouble.start();
  const accessToken = double.registerUser(MATRIX_BOT);
  for (const user of options.users) double.registerUser(user);
  const room = double.createRoom({ ...options.room, creator });
  double.invite(room, creator, MATRIX_BOT);
  const h = await createChatHarness(options.access, options.harness);
  const adapter = await startMatrixBot(h, double, { accessToken, rooms: [room], allowedInviters: [creator] });
  return {
    double,
    h,
    adapter,
    room,
    bodies: () => double.sentBy(MATRIX_BOT).map((e) => String(e.content.body ?? "")),
    async close() {
      await adapter.stop();
      await h.close();
      await double.close();
    },
  };
}
