import { type Kysely, sql } from "kysely";

/**
 * Runs a block of DDL one statement at a time: PGlite's extended protocol takes a single
 * statement per query. Statements are separated by a semicolon at the end of a line.
 */
export async function executeStatements(db: Kysely<unknown>, ddl: string): Promise<void> {
  for (const statement of ddl.split(/;\s*$/m)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}
