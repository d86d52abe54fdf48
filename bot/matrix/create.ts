import type { Runtime } from "../../app/runtime.ts";
import type { AdapterLauncher } from "../adapter-supervisor.ts";
import { KvStorageProvider } from "./kv-storage-provider.ts";
import { MatrixAdapter } from "./matrix-adapter.ts";
import { loginWithPassword, SdkMatrixApi } from "./matrix-api.ts";
import { diagnoseMatrixStart } from "./start-failure.ts";

/**
 * The Matrix adapter's launcher from config; undefined when Matrix is not configured. Each try
 * builds a fresh adapter. With MATRIX_USER_ID + MATRIX_PASSWORD instead of an access
 * token, it logs in first (a new device) and out at stop, so no token is ever written anywhere.
 */
export function matrixLauncher(runtime: Runtime): AdapterLauncher | undefined {
  const { config, db, logger } = runtime;
  const matrix = config.chat.matrix;
  const homeserverUrl = matrix.homeserverUrl;
  if (!homeserverUrl) return undefined;
  const password = !matrix.accessToken && matrix.userId && matrix.password ? matrix.password : undefined;
  if (!matrix.accessToken && !password) return undefined;
  const credentials = password ? "password" : "token";
  return {
    platform: "matrix",
    diagnose: (error) => diagnoseMatrixStart(error, credentials),
    async create() {
      const accessToken =
        matrix.accessToken ?? (await loginWithPassword(homeserverUrl, matrix.userId!, password!));
      const storage = new KvStorageProvider(db, "bot");
      const api = new SdkMatrixApi({ homeserverUrl, accessToken, storage, logger });
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
        logoutOnStop: credentials === "password",
      });
    },
  };
}
