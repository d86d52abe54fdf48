// Prints the README configuration table from app/config-keys.ts: `node scripts/config-table.ts`.
import { configTableMarkdown } from "../app/config-keys.ts";

process.stdout.write(`${configTableMarkdown()}\n`);
