import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";

/**
 * store/schema.ts is written by hand beside the migrations; this test holds the two together. The
 * row types are read with the TypeScript checker (what a `select` returns, whether an insert may
 * leave the column out) and compared, table by table and column by column, with the database the
 * migrations build, on PGlite and on Postgres: the same tables, the same columns, the same
 * nullability, a compatible type family, and a default wherever an insert may leave a column out.
 */

type Family = "text" | "number" | "bigint" | "boolean" | "timestamp" | "json" | "bytes";

interface DeclaredColumn {
  families: Set<Family>;
  /** null is among the select type's members; undefined when the type is `unknown` (either holds). */
  nullable: boolean | undefined;
  /** Declared Generated<…>: an insert leaves it out, so the database must fill it. */
  generated: boolean;
  /** The insert type takes undefined (Generated, or a shared alias such as Timestamp). */
  optionalOnInsert: boolean;
  /** The insert type is never: the database computes it (a generated column). */
  computed: boolean;
}

const SCHEMA = fileURLToPath(new URL("./schema.ts", import.meta.url));
/** Tables the migration runner keeps for itself. */
const MIGRATOR_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);

const DATABASE_TYPES: Record<string, Family> = {
  text: "text",
  varchar: "text",
  bpchar: "text",
  uuid: "text",
  citext: "text",
  int2: "number",
  int4: "number",
  float4: "number",
  float8: "number",
  numeric: "number",
  // node-postgres hands int8 over as a string (no precision lost): schema.ts says string
  int8: "text",
  // a full-text search vector, read back as its text form
  tsvector: "text",
  bool: "boolean",
  timestamptz: "timestamp",
  timestamp: "timestamp",
  date: "timestamp",
  jsonb: "json",
  json: "json",
  bytea: "bytes",
};

function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const program = ts.createProgram([SCHEMA], {
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(SCHEMA);
  assert.ok(source, "store/schema.ts is in the program");
  let database: ts.InterfaceDeclaration | undefined;
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === "Database") database = node;
  });
  assert.ok(database, "store/schema.ts declares interface Database");
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const columns = new Map<string, DeclaredColumn>();
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      const declaration = column.valueDeclaration ?? column.declarations?.[0];
      const typeText =
        declaration && ts.isPropertySignature(declaration) ? (declaration.type?.getText() ?? "") : "";
      columns.set(column.name, {
        ...declaredColumn(checker, checker.getTypeOfSymbol(column)),
        generated: typeText.startsWith("Generated<"),
      });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

/** kysely's ColumnType<S, I, U> is `{ __select__: S; __insert__: I; __update__: U }`; a plain type is all three. */
function declaredColumn(checker: ts.TypeChecker, type: ts.Type): Omit<DeclaredColumn, "generated"> {
  const selectSymbol = type.getProperty("__select__");
  const insertSymbol = type.getProperty("__insert__");
  const select = selectSymbol ? checker.getTypeOfSymbol(selectSymbol) : type;
  const insert = insertSymbol ? checker.getTypeOfSymbol(insertSymbol) : type;
  const members = (t: ts.Type) => (t.isUnion() ? t.types : [t]);
  const families = new Set<Family>();
  let nullable: boolean | undefined = false;
  for (const member of members(select)) {
    if (member.flags & ts.TypeFlags.Null) nullable = true;
    else if (member.flags & ts.TypeFlags.Unknown) {
      nullable = undefined;
      families.add("json");
    } else families.add(familyOf(member));
  }
  const optionalOnInsert = members(insert).some((m) => (m.flags & ts.TypeFlags.Undefined) !== 0);
  const computed = (insert.flags & ts.TypeFlags.Never) !== 0;
  return { families, nullable, optionalOnInsert, computed };
}

function familyOf(type: ts.Type): Family {
  if (type.flags & ts.TypeFlags.StringLike) return "text";
  if (type.flags & ts.TypeFlags.NumberLike) return "number";
  if (type.flags & ts.TypeFlags.BigIntLike) return "bigint";
  if (type.flags & ts.TypeFlags.BooleanLike) return "boolean";
  const name = type.getSymbol()?.getName();
  if (name === "Date") return "timestamp";
  if (name === "Buffer" || name === "Uint8Array") return "bytes";
  // objects and arrays: a JSON column's value
  return "json";
}

const declared = declaredTables();

for (const { dialect, skip } of availableDialects()) {
  describe(`store/schema.ts agrees with the migrated database (${dialect})`, { skip }, () => {
    let store: TestStore;
    let actual: Map<
      string,
      Map<
        string,
        { dataType: string; isNullable: boolean; hasDefaultValue: boolean; isAutoIncrementing: boolean }
      >
    >;
    before(async () => {
      store = await createTestStore(dialect);
      const tables = await store.db.introspection.getTables();
      actual = new Map(
        tables
          .filter((t) => t.schema === "public" && !t.isView && !MIGRATOR_TABLES.has(t.name))
          .map((t) => [t.name, new Map(t.columns.map((c) => [c.name, c]))]),
      );
    });
    after(async () => {
      await store?.dispose();
    });

    test("the same tables", () => {
      assert.deepEqual([...actual.keys()].sort(), [...declared.keys()].sort());
    });

    test("per table: the same columns, nullability, type family, and a default where an insert may leave it out", () => {
      const problems: string[] = [];
      for (const [table, columns] of declared) {
        const real = actual.get(table);
        if (!real) continue;
        const missing = [...columns.keys()].filter((c) => !real.has(c));
        const extra = [...real.keys()].filter((c) => !columns.has(c));
        for (const c of missing) problems.push(`${table}.${c}: in schema.ts, not in the database`);
        for (const c of extra) problems.push(`${table}.${c}: in the database, not in schema.ts`);
        for (const [name, column] of columns) {
          const db = real.get(name);
          if (!db) continue;
          const where = `${table}.${name}`;
          const filled = db.hasDefaultValue || db.isAutoIncrementing;
          if (column.nullable !== undefined && !column.computed && column.nullable !== db.isNullable) {
            problems.push(
              `${where}: schema.ts says ${column.nullable ? "" : "not "}nullable, the database ${db.isNullable ? "" : "not "}nullable`,
            );
          }
          const family = DATABASE_TYPES[db.dataType];
          if (!family) problems.push(`${where}: database type ${db.dataType} is not mapped in this test`);
          else if (!column.families.has(family)) {
            problems.push(
              `${where}: database ${db.dataType} (${family}), schema.ts ${[...column.families].join(" | ")}`,
            );
          }
          if (column.generated && !filled && !db.isNullable) {
            problems.push(`${where}: Generated<…> in schema.ts, but the database has no default`);
          }
          if (!column.optionalOnInsert && !column.computed && filled && column.nullable === false) {
            problems.push(`${where}: the database has a default; schema.ts should say Generated<…>`);
          }
        }
      }
      assert.deepEqual(problems, []);
    });
  });
}
