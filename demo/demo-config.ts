import { join } from "node:path";
import { type Config, ConfigSchema } from "../app/config.ts";

/**
 * The demo's own configuration, whatever the environment or oikos.yaml say: an embedded database in
 * its temporary folder (never your DATABASE_URL or REDIS_URL), the recorded model, the terminal
 * chat as the one operator. The read-only jail is off: the simulated host's tools and world live in
 * that temporary folder, which a jailed command could not see.
 */
export function demoConfig(dir: string, modelUrl: string): Config {
  return ConfigSchema.parse({
    dataDir: join(dir, "data"),
    http: { enabled: false },
    model: { baseUrl: modelUrl, apiKey: "demo", name: "recorded-incident" },
    execution: { readOnlyJail: "off", previews: "off" },
    chat: { shell: { enabled: true, user: "operator" }, operators: ["operator"], admins: ["operator"] },
    log: { level: "info", file: join(dir, "oikos.log") },
  });
}
