import { checkSql } from "../mini/sql.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

const REDIS_READ = [
  "info",
  "ping",
  "dbsize",
  "get",
  "mget",
  "keys",
  "scan",
  "type",
  "ttl",
  "pttl",
  "exists",
  "hgetall",
  "hget",
  "hkeys",
  "hlen",
  "lrange",
  "llen",
  "smembers",
  "scard",
  "zrange",
  "zcard",
  "strlen",
  "role",
  "time",
  "lastsave",
];

function sqlOptions(optionsWithSql: readonly string[]) {
  return (args: readonly ProofWord[]) => {
    let found = 0;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as ProofWord;
      const attached = optionsWithSql.find(
        (option) => option.length === 2 && arg.value.startsWith(option) && arg.value.length > 2,
      );
      if (!arg.static) continue;
      let sql: ProofWord | undefined;
      if (optionsWithSql.includes(arg.value)) sql = args[++i];
      else if (optionsWithSql.some((option) => arg.value.startsWith(`${option}=`)))
        sql = { ...arg, value: arg.value.slice(arg.value.indexOf("=") + 1) };
      else if (attached) sql = { ...arg, value: arg.value.slice(2) };
      if (!sql) continue;
      if (!sql.static) return "the SQL is only known at run time";
      const verdict = checkSql(sql.value);
      if (verdict) return verdict;
      found++;
    }
    if (found === 0 && !args.some((a) => a.static && ["-l", "--list"].includes(a.value))) {
      return "an SQL client without a query reads statements the proof cannot see";
    }
    return null;
  };
}

/** Database clients with read-only statements only. */
export const DATABASE_TOOLS: Record<string, ToolSpec> = {
  psql: {
    flags: "tAqXlxwWe",
    valued: "UdhpcFR",
    long: [
      "--tuples-only",
      "--no-align",
      "--quiet",
      "--no-psqlrc",
      "--list",
      "--expanded",
      "--csv",
      "--no-password",
    ],
    longValued: ["--username", "--dbname", "--host", "--port", "--command", "--field-separator"],
    check: sqlOptions(["-c", "--command"]),
  },
  mysql: {
    flags: "NBstEvrp",
    valued: "euhPDp",
    long: ["--skip-column-names", "--batch", "--silent", "--table", "--vertical", "--raw"],
    longValued: ["--execute", "--user", "--host", "--port", "--database", "--password"],
    check: sqlOptions(["-e", "--execute"]),
  },
  // Only the local server on its own port: `-h`/`-p`/`-u`/`-s` would send the words (RESP, any
  // bytes) to whatever listens there (`redis-cli -p 25 get 'HELO x'` speaks to a mail server).
  "redis-cli": {
    network: true,
    valued: "an",
    refused: Object.fromEntries(
      ["-h", "-p", "-u", "-s", "--host", "--port", "--uri", "--socket"].map((option) => [
        option,
        `\`redis-cli ${option}\` sends its words (any bytes) to any host and port; run it on the Redis host without ${option} (it reaches 127.0.0.1:6379), or ask`,
      ]),
    ),
    long: [
      "--raw",
      "--no-auth-warning",
      "--csv",
      "--tls",
      "--bigkeys",
      "--memkeys",
      "--stat",
      "--latency",
      "--scan",
    ],
    longValued: ["--user", "--pass", "--pattern"],
    bareOk: false,
    sub: {},
  },
};

const redis = DATABASE_TOOLS["redis-cli"] as ToolSpec & { sub: Record<string, ToolSpec> };

for (const verb of REDIS_READ) {
  redis.sub[verb] = { anyOption: true };
  redis.sub[verb.toUpperCase()] = { anyOption: true };
}

for (const [verb, second] of [
  ["client", /^(list|info|getname|id)$/i],
  ["config", /^get$/i],
  ["memory", /^(usage|stats|doctor)$/i],
  ["slowlog", /^(get|len)$/i],
  ["cluster", /^(info|nodes)$/i],
] as const) {
  const spec: ToolSpec = {
    custom: (args) =>
      args[0]?.static && second.test(args[0].value)
        ? null
        : `\`redis-cli ${verb} ${args[0]?.raw ?? ""}\` is not proven read-only`,
  };
  redis.sub[verb] = spec;
  redis.sub[verb.toUpperCase()] = spec;
}
