// Prints the configuration reference table (docs/configuration.md) from app/config-keys.ts:
// `node scripts/config-table.ts`; with `--write` it replaces the table in docs/configuration.md.
import { readFileSync, writeFileSync } from "node:fs";
import { configTableMarkdown } from "../app/config-keys.ts";

const table = configTableMarkdown();
if (process.argv.includes("--write")) {
  const file = new URL("../docs/configuration.md", import.meta.url);
  const lines = readFileSync(file, "utf8").split("\n");
  const start = lines.findIndex((line) => line.startsWith("| env | oikos.yaml key |"));
  if (start < 0) throw new Error("docs/configuration.md has no configuration table to replace");
  let end = start;
  while (end < lines.length && lines[end]!.startsWith("|")) end++;
  lines.splice(start, end - start, ...table.split("\n"));
  writeFileSync(file, lines.join("\n"));
} else {
  process.stdout.write(`${table}\n`);
}
