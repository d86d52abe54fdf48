import { silentLogger } from "../../base/logger.ts";
import { KvStorageProvider } from "../../bot/matrix/kv-storage-provider.ts";
import { MatrixAdapter } from "../../bot/matrix/matrix-adapter.ts";
import { SdkMatrixApi } from "../../bot/matrix/matrix-api.ts";
import type { MatrixDouble } from "../matrix-double/matrix-double.ts";
import type { ChatHarness } from "./chat-harness.ts";

/**
 * The real Matrix adapter against the homeserver double, its sync token kept in the harness
 * database, registered with the harness core and started. Fast retries and sync timeouts for tests.
 */
export async function startMatrixBot(
  h: ChatHarness,
  double: MatrixDouble,
  options: {
    accessToken: string;
    rooms: string[];
    allowedInviters: string[];
    roomInviters?: Record<string, string[]>;
  },
): Promise<MatrixAdapter> {
  const storage = new KvStorageProvider(h.store.db, "bot");
  const api = new SdkMatrixApi({
    homeserverUrl: double.url,
    accessToken: options.accessToken,
    storage,
    logger: silentLogger(),
  });
  const adapter = new MatrixAdapter({
    api,
    storage,
    rooms: options.rooms,
    allowedInviters: options.allowedInviters,
    ...(options.roomInviters ? { roomInviters: options.roomInviters } : {}),
    logger: silentLogger(),
    syncTimeoutMs: 5_000,
    retry: { baseDelayMs: 10 },
  });
  h.adapters.set("matrix", adapter);
  await adapter.start((e) => h.core.handle(e));
  return adapter;
}
