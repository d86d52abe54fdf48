import { Client, type ConnectConfig } from "ssh2";
import { redact } from "../../policy/redact.ts";
import {
  HostKeyChangedError,
  HostKeyUnknownError,
  SshAuthFailedError,
  SshConnectionFailedError,
  SshConnectionRefusedError,
  SshConnectTimeoutError,
  SshKeyInvalidError,
} from "./errors.ts";
import { acceptedFingerprints, fingerprintOf, type HostKeyStore } from "./host-key-store.ts";
import { resolveAuth, type SshAuth } from "./ssh-auth.ts";
import { hostPort, type SshEndpoint } from "./target.ts";

export interface ConnectOptions {
  auth: SshAuth;
  hostKeys: HostKeyStore;
  /** Accept and remember the key of a host seen for the first time. Default true. */
  trustOnFirstUse: boolean;
  readyTimeoutMs: number;
  keepaliveIntervalMs: number;
  keepaliveCountMax: number;
  algorithms?: ConnectConfig["algorithms"];
}

type HostKeyVerdict =
  | { kind: "accepted" }
  | { kind: "changed"; expected: readonly string[]; presented: string }
  | { kind: "unknown"; presented: string };

/**
 * One authenticated ssh2 connection, host key verified against `hostKeys` (trust-on-first-use
 * unless disabled). Every failure becomes one of the typed errors in errors.ts.
 */
export async function connectSsh(endpoint: SshEndpoint, options: ConnectOptions): Promise<Client> {
  const where = hostPort(endpoint);
  const auth = await resolveAuth(options.auth);
  const client = new Client();
  let verdict: HostKeyVerdict | null = null;

  const hostVerifier = (key: Buffer, verify: (ok: boolean) => void): void => {
    const presented = fingerprintOf(key);
    acceptedFingerprints(options.hostKeys, where)
      .then(async (known) => {
        if (known.length === 0) {
          if (!options.trustOnFirstUse) {
            verdict = { kind: "unknown", presented };
            return false;
          }
          await options.hostKeys.remember(where, presented);
          // another worker may have remembered a different key for this host at the same moment
          const stored = await acceptedFingerprints(options.hostKeys, where);
          if (stored.length > 0 && !stored.includes(presented)) {
            verdict = { kind: "changed", expected: stored, presented };
            return false;
          }
          verdict = { kind: "accepted" };
          return true;
        }
        if (known.includes(presented)) {
          verdict = { kind: "accepted" };
          return true;
        }
        verdict = { kind: "changed", expected: known, presented };
        return false;
      })
      .then(verify, () => verify(false));
  };

  return new Promise<Client>((resolve, reject) => {
    let settled = false;
    // ssh2 may report more errors after the first (a reset after a refused login): an error event
    // without a listener would crash the process, so this listener stays for the client's lifetime
    client.on("error", (error: Error & { level?: string; code?: string }) => {
      if (settled) return;
      settled = true;
      client.end();
      reject(classify(error, endpoint, where, verdict, options.readyTimeoutMs));
    });
    client.once("ready", () => {
      if (settled) return;
      settled = true;
      resolve(client);
    });
    try {
      client.connect({
        host: endpoint.host,
        port: endpoint.port,
        username: endpoint.username,
        ...auth,
        hostVerifier: hostVerifier as ConnectConfig["hostVerifier"],
        readyTimeout: options.readyTimeoutMs,
        keepaliveInterval: options.keepaliveIntervalMs,
        keepaliveCountMax: options.keepaliveCountMax,
        // ssh2 defaults already lead with the cheap choices: curve25519, ssh-ed25519, aes128-gcm, no compression
        ...(options.algorithms === undefined ? {} : { algorithms: options.algorithms }),
      });
    } catch (error) {
      // ssh2 parses the key synchronously; its message names the problem, never the key itself
      const reason = (error as Error).message.replace(/^Cannot parse privateKey: /, "");
      settled = true;
      reject(new SshKeyInvalidError(reason, { cause: error }));
      return;
    }
    // ssh2 writes whole packets; Nagle would hold back the second of two small ones for an ACK.
    client.setNoDelay(true);
  });
}

function classify(
  error: Error & { level?: string; code?: string },
  endpoint: SshEndpoint,
  where: string,
  verdict: HostKeyVerdict | null,
  readyTimeoutMs: number,
): Error {
  // ssh2 and the network can echo what the peer sent; these texts reach logs and status reasons.
  const cause = { cause: error, logMessage: redact(`ssh ${where}: ${error.message}`) };
  if (verdict !== null && (verdict as HostKeyVerdict).kind !== "accepted") {
    const seen = verdict as Exclude<HostKeyVerdict, { kind: "accepted" }>;
    return seen.kind === "changed"
      ? new HostKeyChangedError(where, seen.expected, seen.presented, cause)
      : new HostKeyUnknownError(where, seen.presented, cause);
  }
  if (error.code === "ECONNREFUSED") return new SshConnectionRefusedError(where, cause);
  if (error.level === "client-authentication") return new SshAuthFailedError(where, endpoint.username, cause);
  if (error.level === "client-timeout" || error.code === "ETIMEDOUT") {
    return new SshConnectTimeoutError(where, readyTimeoutMs, cause);
  }
  return new SshConnectionFailedError(where, redact(error.code ?? error.message), cause);
}
