import { type Kysely, sql } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: any schema: the scan reads the catalogue, not the typed tables
type AnyDb = Kysely<any>;

export interface StoredText {
  table: string;
  column: string;
  text: string;
}

/** The column types a text can be stored in (arrays of them included). */
const TEXT_TYPES = new Set([
  "text",
  "character varying",
  "character",
  "json",
  "jsonb",
  "ARRAY",
  "USER-DEFINED",
]);

/**
 * Every text/json value of every table of the store's schema, read through the catalogue (so a table
 * or column added later is scanned without anyone listing it): the oracle of "a secret appears in no
 * table".
 */
export async function everyStoredText(db: AnyDb): Promise<StoredText[]> {
  const columns = await sql<{ table_name: string; column_name: string; data_type: string }>`
    SELECT c.table_name, c.column_name, c.data_type
      FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`.execute(db);
  const out: StoredText[] = [];
  for (const { table_name: table, column_name: column, data_type: type } of columns.rows) {
    if (!TEXT_TYPES.has(type)) continue;
    const rows = await sql<{ v: string | null }>`
      SELECT ${sql.ref(column)}::text AS v FROM ${sql.table(table)} WHERE ${sql.ref(column)} IS NOT NULL`.execute(
      db,
    );
    for (const row of rows.rows) if (row.v !== null) out.push({ table, column, text: row.v });
  }
  return out;
}

/** Where `needle` was stored, as `table.column` names (empty: nowhere). */
export async function tablesHolding(db: AnyDb, needle: string | RegExp): Promise<string[]> {
  const hits = (await everyStoredText(db)).filter(({ text }) =>
    typeof needle === "string" ? text.includes(needle) : needle.test(text),
  );
  return [...new Set(hits.map(({ table, column }) => `${table}.${column}`))];
}
