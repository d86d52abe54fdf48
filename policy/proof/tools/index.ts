import type { ToolSpec } from "../tool-spec.ts";
import { NETWORK_TOOLS } from "./network.ts";
import { PACKAGE_VCS_DB_TOOLS } from "./packages-vcs-db.ts";
import { PLATFORM_TOOLS } from "./platform.ts";
import { SYSTEM_TOOLS } from "./system.ts";
import { TEXT_TOOLS } from "./text.ts";

/** Every tool the read-only proof covers, by command name. */
export const TOOLS: ReadonlyMap<string, ToolSpec> = new Map(
  Object.entries({
    ...TEXT_TOOLS,
    ...SYSTEM_TOOLS,
    ...PLATFORM_TOOLS,
    ...NETWORK_TOOLS,
    ...PACKAGE_VCS_DB_TOOLS,
  }),
);
