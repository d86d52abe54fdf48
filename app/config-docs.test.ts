// The configuration reference (docs/configuration.md) is the code's: its table is the one
// app/config-keys.ts prints, every key of the schema is in it (or named as YAML-only), and every
// default shown is the schema's.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { z } from "zod";
import { ConfigSchema } from "./config.ts";
import { CONFIG_KEYS, configTableMarkdown, YAML_ONLY_KEYS } from "./config-keys.ts";

const reference = readFileSync(new URL("../docs/configuration.md", import.meta.url), "utf8");

/** Dotted paths of the schema's leaves: a nested object's keys, wrappers (default, optional …) seen through. */
function leafPaths(schema: z.ZodType, prefix = ""): string[] {
  let def = schema._zod.def as unknown as Record<string, unknown>;
  while (def.type !== "object" && def.innerType) def = (def.innerType as z.ZodType)._zod.def as never;
  if (def.type !== "object") return [prefix];
  return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, value]) =>
    leafPaths(value, prefix ? `${prefix}.${key}` : key),
  );
}

test("the docs/configuration.md table is the one app/config-keys.ts prints", () => {
  assert.ok(
    reference.includes(`${configTableMarkdown()}\n`),
    "docs/configuration.md's table differs: run `node scripts/config-table.ts --write`",
  );
});

test("every key of the config schema is in the table or named in docs/configuration.md as YAML-only", () => {
  const documented = new Set<string>([...CONFIG_KEYS.map((k) => k.path), ...YAML_ONLY_KEYS]);
  const leaves = leafPaths(ConfigSchema);
  assert.ok(leaves.length > CONFIG_KEYS.length / 2, "the schema walk found the keys");
  for (const path of leaves) assert.ok(documented.has(path), `${path} has no entry in app/config-keys.ts`);
  for (const path of documented)
    assert.ok(leaves.includes(path), `${path} is documented but not in the schema`);
  for (const path of YAML_ONLY_KEYS)
    assert.ok(reference.includes(`\`${path}\``), `docs/configuration.md never names ${path}`);
});

test("every default in the table is the schema's default", () => {
  const defaults = ConfigSchema.parse({}) as unknown as Record<string, unknown>;
  for (const key of CONFIG_KEYS) {
    const value = key.path.split(".").reduce<unknown>((node, part) => (node as never)?.[part], defaults);
    if (value === undefined || (Array.isArray(value) && value.length === 0)) {
      assert.match(
        key.defaultText,
        /^\(|^false/,
        `${key.path}: the schema has no default, the table shows one`,
      );
    } else {
      assert.ok(
        key.defaultText === String(value) || key.defaultText.startsWith(`${String(value)} (`),
        `${key.path}: the table says ${key.defaultText}, the schema ${String(value)}`,
      );
    }
  }
});
