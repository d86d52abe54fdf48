import { readFile } from "node:fs/promises";
import type { ConnectConfig } from "ssh2";
import { z } from "zod";
import { SshKeyInvalidError } from "./errors.ts";

/**
 * How oikos authenticates: a private key (inline or by path, optional passphrase) and/or an
 * ssh-agent. These values are secrets: nothing in jobs/ssh logs them or puts them in an error.
 */
export const SshAuthSchema = z
  .object({
    privateKey: z.string().min(1).optional(),
    privateKeyPath: z.string().min(1).optional(),
    passphrase: z.string().optional(),
    /** An agent socket path, or true for $SSH_AUTH_SOCK. */
    agent: z.union([z.string().min(1), z.boolean()]).optional(),
  })
  .refine((auth) => auth.privateKey !== undefined || auth.privateKeyPath !== undefined || auth.agent, {
    message: "configure a private key (inline or path) or an ssh-agent",
  });
export type SshAuth = z.output<typeof SshAuthSchema>;

type AuthConfig = Pick<ConnectConfig, "privateKey" | "passphrase" | "agent" | "authHandler">;

const keyFiles = new Map<string, Promise<Buffer>>();

/** ssh2 connect settings for `auth`. Key files are read once per path and kept in memory. */
export async function resolveAuth(auth: SshAuth): Promise<AuthConfig> {
  const config: AuthConfig = {};
  const methods: Array<"publickey" | "agent"> = [];
  if (auth.privateKey !== undefined) {
    config.privateKey = auth.privateKey;
  } else if (auth.privateKeyPath !== undefined) {
    const path = auth.privateKeyPath;
    let pending = keyFiles.get(path);
    if (pending === undefined) {
      pending = readFile(path);
      keyFiles.set(path, pending);
      pending.catch(() => keyFiles.delete(path));
    }
    try {
      config.privateKey = await pending;
    } catch (error) {
      throw new SshKeyInvalidError(
        `reading ${path} failed (${(error as NodeJS.ErrnoException).code ?? "error"})`,
        {
          cause: error,
        },
      );
    }
  }
  if (config.privateKey !== undefined) {
    methods.push("publickey");
    if (auth.passphrase !== undefined) config.passphrase = auth.passphrase;
  }
  const agent = auth.agent === true ? process.env.SSH_AUTH_SOCK : auth.agent || undefined;
  if (agent !== undefined) {
    config.agent = agent;
    methods.push("agent");
  }
  // Naming the methods skips ssh2's default "none" attempt, one round trip per connection.
  config.authHandler = methods;
  return config;
}
