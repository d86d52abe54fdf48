import type { Runtime } from "../../app/runtime.ts";
import { KvStorageProvider } from "./kv-storage-provider.ts";
import { MatrixAdapter } from "./matrix-adapter.ts";
import { SdkMatrixApi } from "./matrix-api.ts";

/** The Matrix adapter from config; undefined when Matrix is not configured. */
export function createMatrixAdapter(runtime: Runtime): MatrixAdapter | undefined {
  const { config, db, logger } = runtime;
  const matrix = config.chat.matrix;
  if (!matrix.homeserverUrl || !matrix.accessToken) return undefined;
  const storage = new KvStorageProvider(db, "bot");
  const api = new SdkMatrixApi({
    homeserverUrl: matrix.homeserverUrl,
    accessToken: matrix.accessToken,
    storage,
    logger,
  });
  return new MatrixAdapter({
    api,
    storage,
    rooms: matrix.rooms,
    allowedInviters: [...config.chat.operators, ...config.chat.admins],
    logger,
  });
}
