import type { Runtime } from "../../app/runtime.ts";
import { KvStorageProvider } from "./kv-storage-provider.ts";
import { MatrixAdapter } from "./matrix-adapter.ts";
import { loginWithPassword, SdkMatrixApi } from "./matrix-api.ts";

/**
 * The Matrix adapter from config; undefined when Matrix is not configured. With MATRIX_USER_ID +
 * MATRIX_PASSWORD instead of an access token, it logs in now (a new device) and out at stop, so
 * no token is ever written anywhere.
 */
export async function createMatrixAdapter(runtime: Runtime): Promise<MatrixAdapter | undefined> {
  const { config, db, logger } = runtime;
  const matrix = config.chat.matrix;
  if (!matrix.homeserverUrl) return undefined;
  let accessToken = matrix.accessToken;
  let loggedIn = false;
  if (!accessToken && matrix.userId && matrix.password) {
    accessToken = await loginWithPassword(matrix.homeserverUrl, matrix.userId, matrix.password);
    loggedIn = true;
  }
  if (!accessToken) return undefined;
  const storage = new KvStorageProvider(db, "bot");
  const api = new SdkMatrixApi({ homeserverUrl: matrix.homeserverUrl, accessToken, storage, logger });
  return new MatrixAdapter({
    api,
    storage,
    rooms: matrix.rooms,
    allowedInviters: [...config.chat.operators, ...config.chat.admins],
    roomInviters: Object.fromEntries(
      Object.entries(config.chat.rooms).map(([room, rules]) => [
        room,
        [...(rules.operators ?? []), ...(rules.admins ?? [])],
      ]),
    ),
    logger,
    logoutOnStop: loggedIn,
  });
}
