import { OikosError } from "../../base/errors.ts";
import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { serve } from "../serve.ts";

export const description = "queue workers only (SSH execution, continuations, sweeps); needs REDIS_URL";
export const usage =
  "Run on any machine that reaches Redis, Postgres and the targets. Stops on SIGINT/SIGTERM\nafter running jobs finish.";

export async function run(_argv: string[], io: CommandIO): Promise<number> {
  const config = loadConfig();
  if (!config.redis.url || !config.database.url) {
    throw new OikosError(
      "worker_needs_shared_services",
      "`oikos worker` shares work with other processes through Redis and Postgres: set REDIS_URL and DATABASE_URL. For a single process use `oikos start`.",
    );
  }
  return serve(io, { role: "worker", terminal: false });
}
