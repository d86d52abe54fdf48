import { hostname } from "node:os";
import type { Capability } from "../app/compose-context.ts";
import type { Runtime } from "../app/runtime.ts";
import { upsertEntities } from "../store/entities.ts";
import { applyInventory } from "../store/import/apply-inventory.ts";
import { readInventory } from "../store/import/read-inventory.ts";
import { mcpTokens } from "./config.ts";
import { createMcpHttpHandler } from "./http.ts";

/**
 * The knowledge graph's start-up and the MCP surface for outside clients: makes sure the `local`
 * target exists, imports `inventory.file` (idempotent), and mounts `/mcp` on the HTTP server with
 * the same tools and gates the agent uses.
 */
export const mcpCapability: Capability = {
  name: "mcp",
  async start(runtime, ctx) {
    if (ctx.role === "worker") return undefined;
    await ensureLocalTarget(runtime);
    await importConfiguredInventory(runtime);
    if (runtime.config.http.enabled) {
      const execution = await ctx.runService();
      ctx.httpRoutes["/mcp"] = createMcpHttpHandler({
        tokens: mcpTokens(runtime.config.mcp),
        logger: runtime.logger,
        // The tools' modules and the MCP SDK are loaded by the first request.
        createServer: async (principal) =>
          (await import("./server.ts")).createMcpServer({
            db: runtime.db,
            principal,
            events: runtime.events,
            execution,
            logger: runtime.logger,
          }),
      });
    }
    return undefined;
  },
};

/** The machine oikos runs on, reached without SSH. */
export const LOCAL_TARGET_SLUG = "local:oikos";

async function ensureLocalTarget(runtime: Runtime): Promise<void> {
  await upsertEntities(
    runtime.db,
    [
      {
        slug: LOCAL_TARGET_SLUG,
        type: "local",
        name: "oikos",
        transport: "local",
        attributes: { hostname: hostname(), note: "the machine oikos itself runs on" },
      },
    ],
    { by: "oikos" },
  );
}

async function importConfiguredInventory(runtime: Runtime): Promise<void> {
  const file = runtime.config.inventory.file;
  if (!file) return;
  const inventory = await readInventory("ansible", file);
  const result = await applyInventory(runtime.db, inventory, { by: "inventory-import" });
  runtime.logger.info(
    {
      file,
      created: result.entities.created.length,
      updated: result.entities.updated.length,
      unchanged: result.entities.unchanged.length,
      warnings: result.warnings,
    },
    "inventory imported",
  );
}
