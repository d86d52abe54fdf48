import { z } from "zod";
import { ConfigSchema } from "../../app/config.ts";

/**
 * A scenario's `config:` block: any oikos configuration key, in oikos.yaml's shape, laid over the
 * configuration the harness composes (`self: { targets: [lxc:oikos] }`,
 * `execution: { approvalTtlMs: 60000 }`). The keys that wire oikos to the harness are its own.
 */
export const HARNESS_OWNED_KEYS = [
  "dataDir",
  "database",
  "redis",
  "http",
  "log",
  "model.baseUrl",
  "model.apiKey",
  "model.name",
  "chat.matrix",
  "chat.slack",
  "ssh.privateKeyPath",
  "ssh.user",
] as const;

export type ConfigOverrides = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `overrides` laid over `base`: objects merge key by key, anything else replaces. */
export function deepMerge(
  base: Record<string, unknown>,
  overrides: ConfigOverrides,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const current = merged[key];
    merged[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : value;
  }
  return merged;
}

/** Keys of `given` the parsed config does not have: ConfigSchema drops unknown keys silently. */
function unknownKeys(given: unknown, parsed: unknown, path: string[] = []): string[][] {
  if (!isObject(given) || !isObject(parsed)) return [];
  return Object.entries(given).flatMap(([key, value]) =>
    key in parsed ? unknownKeys(value, parsed[key], [...path, key]) : [[...path, key]],
  );
}

const ownedPrefix = (path: string[]) =>
  HARNESS_OWNED_KEYS.find((owned) => {
    const parts = owned.split(".");
    return parts.every((part, i) => path[i] === part);
  });

function ownedKeys(given: unknown, path: string[] = []): string[][] {
  if (!isObject(given)) return [];
  return Object.entries(given).flatMap(([key, value]) =>
    ownedPrefix([...path, key]) ? [[...path, key]] : ownedKeys(value, [...path, key]),
  );
}

/** A minimal config the real one is built like, so a scenario's block validates on its own. */
const PROBE_BASE = {
  model: { baseUrl: "http://127.0.0.1:1/v1" },
  chat: { operators: ["@alice:double.test"] },
};

/** Validates the block with the config's own schema; issues carry their path under `config`. */
export const scenarioConfig = z.record(z.string(), z.unknown()).superRefine((given, ctx) => {
  for (const path of ownedKeys(given))
    ctx.addIssue({
      code: "custom",
      path,
      message: `${path.join(".")} is set by the eval harness (it wires oikos to the lab and the doubles)`,
    });
  const parsed = ConfigSchema.safeParse(deepMerge(PROBE_BASE, given));
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: "custom", path: issue.path.map(String), message: issue.message });
    return;
  }
  for (const path of unknownKeys(given, parsed.data))
    ctx.addIssue({ code: "custom", path, message: `${path.join(".")} is not an oikos configuration key` });
});
