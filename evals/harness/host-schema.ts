import { z } from "zod";
import { toolRuleSchema } from "../../demo/homelab/tool-rule.ts";
import { hostFiles } from "./lab-files.ts";

// A scenario's entities and lab hosts (evals/README.md). A leaf of the manifest, so the lab
// (evals/lab/homelab.ts) reads a host's shape without importing the manifest that imports it.

export const entity = z.object({
  slug: z.string(),
  type: z.string(),
  name: z.string().optional(),
  state: z.enum(["active", "stopped", "destroyed", "unknown"]).optional(),
  parent: z.string().optional(),
  transport: z.enum(["ssh", "pct-exec", "qm-guest-exec", "local", "none"]).optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
export type ScenarioEntity = z.infer<typeof entity>;

/** A simulated machine: one sshd of the lab, its entity, its world variables and fake commands. */
export const host = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/),
  entity: entity.omit({ transport: true }),
  vars: z.record(z.string(), z.unknown()).default({}),
  tools: z.record(z.string(), z.array(toolRuleSchema)).default({}),
  /** Real files written before the scenario (evals/harness/lab-files.ts), path → content. */
  files: hostFiles,
});
export type ScenarioHost = z.infer<typeof host>;
