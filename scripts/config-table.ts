// Prints the README configuration table from app/config-keys.ts: `node scripts/config-table.ts`.
import { CONFIG_KEYS } from "../app/config-keys.ts";

const rows = CONFIG_KEYS.map(
  (k) =>
    `| \`${k.env}\` | \`${k.path}\` | ${k.defaultText} | ${k.doc}${k.secret ? " (secret: never logged)" : ""} |`,
);
process.stdout.write(
  `${["| env | oikos.yaml key | default | meaning |", "| --- | --- | --- | --- |", ...rows].join("\n")}\n`,
);
