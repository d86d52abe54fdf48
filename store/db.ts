import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

/**
 * The database handle the layers above pass around: they hand it to store/ functions and never
 * query it themselves (the query builder and the table types stay in store/ and migrations/; a lint
 * rule checks it).
 */
export type Db = Kysely<Database>;

export type { JsonObject } from "./schema.ts";
