import type { Kysely } from "kysely";
import { executeStatements } from "./statements.ts";

// A careless model is bounded (issue #30): a tool result the gates refused carries the refused call's
// identity (policy/refusal-identity.ts refusalKey: tool, refusal codes, canonical arguments hash), so a
// later turn of the session knows the same call was refused already. Null on every other message.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(db, DDL);
}

const DDL = `
    ALTER TABLE messages ADD COLUMN refusal_key text;
`;
