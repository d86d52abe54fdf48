import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import { finding, hasOption, optionValue, positionals } from "../command-view.ts";
import type { Finding, Risk } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";
import {
  allOptionValues,
  clientFileWrites,
  INLINE_SQL_OPTIONS,
  metaCommandWrites,
  sqlTexts,
} from "./sql-client-io.ts";

/** Database clients with inline SQL, dumps and restores. */

const SQL_READ =
  /^\s*(select|show|explain|describe|desc|with|values|table|\\[a-z?]+|pragma\s+\w+\s*;?\s*$|begin|commit|rollback|set\s+search_path|use|help)\b/i;
const SQL_DESTROY =
  /\b(drop|truncate|delete\s+from|delete\b|alter\s+table\s+\S+\s+drop|flushall|flushdb|dropdb|vacuum\s+full)\b/i;
const SQL_WRITE =
  /\b(insert|update|create|alter|grant|revoke|copy|vacuum|reindex|cluster|refresh|comment\s+on|set|call|do|lock|load|replace|merge|rename|import)\b/i;

/** Splits SQL on `;` outside quotes and judges each statement. */
export function classifySql(sql: string): { risk: Risk; statement: string } {
  const statements: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ";") {
      statements.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  statements.push(current);
  let worst: { risk: Risk; statement: string } = { risk: "read_only", statement: sql };
  const rank = { read_only: 0, config_mutation: 1, destructive: 2, reject: 3 };
  for (const raw of statements) {
    const statement = raw.replace(/'(?:[^']|'')*'/g, "''").trim();
    if (statement === "") continue;
    let risk: Risk = "read_only";
    if (SQL_DESTROY.test(statement)) risk = "destructive";
    else if (
      !SQL_READ.test(statement) ||
      (SQL_WRITE.test(statement) && !/^\s*(select|with|show|explain)\b/i.test(statement))
    ) {
      risk = "config_mutation";
    } else if (
      /^\s*(select|with)\b/i.test(statement) &&
      /\binto\b|\bfor\s+update\b|\bpg_terminate_backend\b|\bpg_cancel_backend\b|\bnextval\b|\bset_config\b|\bpg_reload_conf\b/i.test(
        statement,
      )
    ) {
      risk = "config_mutation";
    }
    if (rank[risk] > rank[worst.risk] || worst.statement === sql) worst = { risk, statement: raw.trim() };
  }
  return worst;
}

/** Shell commands hidden in SQL: `COPY … TO/FROM PROGRAM '…'`, sqlite's `.shell` / `.system`. */
function sqlShellFindings(view: CommandView, sql: Arg | undefined, ctx: RuleContext): Finding[] {
  if (!sql) return [];
  const findings: Finding[] = [];
  for (const match of sql.value.matchAll(/\bprogram\s+'((?:[^']|'')*)'/gi)) {
    findings.push(...ctx.classifyScript((match[1] ?? "").replace(/''/g, "'"), view.text, sql.dynamic));
  }
  const dot = /^\s*\.(shell|system)\s+(.*)$/ms.exec(sql.value);
  if (dot) findings.push(...ctx.classifyScript(dot[2] ?? "", view.text, sql.dynamic));
  const shell = clientShell(sql.value);
  if (shell !== null) findings.push(...ctx.classifyScript(shell, view.text, sql.dynamic));
  return findings;
}

function sqlRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const stdin = ctx.stdinScript;
  const fedSql: Arg | null =
    stdin && view.name !== "redis-cli" && allOptionValues(view.args, INLINE_SQL_OPTIONS).length === 0
      ? { value: stdin.text, raw: stdin.text, dynamic: stdin.dynamic }
      : null;
  if (fedSql) {
    return [sqlFinding(view, fedSql), ...sqlShellFindings(view, fedSql, ctx), ...clientFileWrites(view, ctx)];
  }
  const findings = [...sqlVerdict(view), ...clientFileWrites(view, ctx)];
  for (const sql of sqlTexts(view)) {
    findings.push(...sqlShellFindings(view, sql, ctx), ...metaCommandWrites(view, sql, ctx));
  }
  return findings;
}

function sqlVerdict(view: CommandView): Finding[] {
  const q = quoteSegment(view.text);
  const inlines = allOptionValues(view.args, INLINE_SQL_OPTIONS);
  const inline = inlines[0];
  if (view.name === "sqlite3") {
    const pos = positionals(view.args, ["-cmd", "-separator"]);
    const sql = pos[1];
    const commands = allOptionValues(view.args, ["-cmd"]).map((cmd) => sqlFinding(view, cmd));
    if (!sql)
      return [
        ...commands,
        finding("config_mutation", `${q} opens an interactive SQL session (config_mutation)`),
      ];
    return [...commands, sqlFinding(view, sql)];
  }
  if (view.name === "redis-cli") {
    const pos = positionals(view.args, ["-h", "-p", "-a", "-n", "-u", "--user", "--pass"]);
    if (pos.length === 0)
      return [finding("config_mutation", `${q} opens an interactive Redis session (config_mutation)`)];
    const command = pos.map((arg) => arg.value).join(" ");
    const verb = (pos[0] as Arg).value.toLowerCase();
    const sub = (pos[1]?.value ?? "").toLowerCase();
    if (/^(flushall|flushdb|del|unlink|shutdown|debug)$/.test(verb))
      return [finding("destructive", `${q}: \`${verb}\` deletes data (destructive)`)];
    const readOnlySub: Record<string, RegExp> = {
      client: /^(list|info|getname|id|getredir|trackinginfo)$/,
      memory: /^(doctor|stats|usage|malloc-stats|help)$/,
      slowlog: /^(get|len|help)$/,
    };
    if (readOnlySub[verb] && !readOnlySub[verb].test(sub))
      return [finding("config_mutation", `${q}: \`${verb} ${sub}\` changes server state (config_mutation)`)];
    if (
      /^(get|mget|keys|scan|info|ping|ttl|pttl|type|exists|hget|hgetall|hkeys|lrange|llen|smembers|scard|zrange|zcard|dbsize|memory|client|config get|slowlog|xinfo|xlen|xrange|strlen|monitor|role|time|lastsave)$/.test(
        verb,
      )
    ) {
      return [finding("read_only", `${q} only reads (read-only)`)];
    }
    return [finding("config_mutation", `${q}: \`${command}\` changes Redis data (config_mutation)`)];
  }
  if (hasOption(view.args, ["-l", "--list"], false) && !inline)
    return [finding("read_only", `${q} lists databases (read-only)`)];
  if (!inline) {
    const file = optionValue(view.args, ["-f", "--file"]);
    if (file)
      return [
        finding(
          "config_mutation",
          `${q} runs the SQL file \`${file.raw}\`, which oikos cannot inspect (config_mutation)`,
        ),
      ];
    return [
      finding(
        "config_mutation",
        `${q} opens an SQL session that reads statements oikos cannot see (config_mutation)`,
      ),
    ];
  }
  return inlines.map((sql) => sqlFinding(view, sql));
}

/** Client meta-commands that run a shell: psql `\\! cmd`, mysql `system cmd` / `\\! cmd`. */
function clientShell(sql: string): string | null {
  const match = /^\s*(?:\\!|system\b)\s*(.*)$/is.exec(sql);
  return match ? (match[1] ?? "") : null;
}

function sqlFinding(view: CommandView, sql: Arg): Finding {
  const q = quoteSegment(view.text);
  if (sql.dynamic !== "none") {
    return finding(
      "config_mutation",
      `${q}: the SQL \`${sql.raw}\` is built at run time, so it cannot be proven read-only`,
    );
  }
  const verdict = classifySql(sql.value);
  const label = {
    read_only: "only reads",
    config_mutation: "changes data or schema (config_mutation)",
    destructive: "drops or deletes data (destructive)",
    reject: "is rejected",
  }[verdict.risk];
  return finding(verdict.risk, `${q}: SQL \`${verdict.statement.slice(0, 60)}\` ${label}`);
}

export const DATABASE_RULES: CommandRule[] = [
  {
    names: ["psql", "mysql", "mariadb", "sqlite3", "redis-cli", "clickhouse-client"],
    what: "runs SQL",
    risk: "read_only",
    wrapper: true,
    valueOptions: ["-U", "-h", "-p", "-d", "-u", "-P", "-D"],
    refine: sqlRefine,
    examples: [
      ["psql -U postgres -c 'select count(*) from users'", "read_only"],
      ["psql -l", "read_only"],
      ["psql -c 'DROP TABLE users'", "destructive"],
      ["psql -d app -c 'ALTER TABLE users ADD COLUMN x int'", "config_mutation"],
      ["mysql -e 'SHOW DATABASES'", "read_only"],
      ["mysql -u root -e 'truncate table sessions'", "destructive"],
      ["psql -f migrate.sql", "config_mutation"],
      ["sqlite3 app.db 'select * from t'", "read_only"],
      ["redis-cli info memory", "read_only"],
      ["redis-cli flushall", "destructive"],
      ["psql -c \"COPY t TO PROGRAM 'rm -rf /srv'\"", "destructive"],
      ["sqlite3 app.db '.shell rm -rf /srv'", "destructive"],
      ["psql -c '\\! rm -rf /srv'", "destructive"],
      ["mysql -e 'system reboot'", "destructive"],
      ["psql", "config_mutation"],
      ["psql -c 'select 1' -c 'drop table t'", "destructive"],
      ["psql -o /tmp/out -c 'select 1'", "config_mutation"],
      ["redis-cli client kill id 5", "config_mutation"],
      ["mysql app <<< 'DROP TABLE users'", "destructive"],
      ["psql app <<'EOF'\nDELETE FROM sessions;\nEOF", "destructive"],
      ["psql app <<< 'select 1'", "read_only"],
    ],
  },
  {
    names: [
      "pg_dump",
      "pg_dumpall",
      "mysqldump",
      "mariadb-dump",
      "pg_lsclusters",
      "pg_isready",
      "pg_controldata",
    ],
    what: "dumps or reports on a database",
    risk: "read_only",
    flags: { mutating: ["-f", "--file", "-r", "--result-file"] },
    bundles: false,
    examples: [
      ["pg_dump -U app app | gzip -c", "read_only"],
      ["pg_dump -f /backup/app.sql app", "config_mutation"],
    ],
  },
  {
    names: [
      "pg_restore",
      "pg_ctl",
      "pg_ctlcluster",
      "pg_upgradecluster",
      "createdb",
      "createuser",
      "mongorestore",
    ],
    what: "changes a database server",
    risk: "config_mutation",
    flags: { destructive: ["-c", "--clean"] },
    bundles: false,
    examples: [
      ["pg_restore -d app dump.bin", "config_mutation"],
      ["pg_restore -c -d app dump.bin", "destructive"],
    ],
  },
  {
    names: ["dropdb", "dropuser", "pg_dropcluster"],
    what: "deletes a database",
    risk: "destructive",
    examples: [["dropdb app", "destructive"]],
  },
];
