/**
 * `node scripts/cpu-profile-table.ts <file.cpuprofile> [--from-frame <url part>] [--top N]`: where the
 * CPU samples of a `node --cpu-prof` profile went, as a Markdown table of the run path's stages
 * (parse, second parser, proof, previews, schema validation, DB, queue, ssh2 …). Each sample goes to
 * the stage of its innermost frame that names one (zod called from the MCP SDK counts as schema
 * validation). CPU samples, not wall time: a loaded machine stretches the waits, not the shares of
 * work. `--from-frame` starts the window at the first sample with a frame whose URL contains it (e.g.
 * `call-tool.ts`, to leave out start-up); FROM / TO (microseconds, the profile's clock) bound it.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const IDLE = "idle, GC, program";
const STAGES: [string, (frame: CallFrame) => boolean][] = [
  [IDLE, (f) => ["(garbage collector)", "(idle)", "(program)"].includes(f.functionName)],
  ["second parser (mvdan/sh, wasm)", (f) => /second-parser/.test(f.url) || /^wasm:/.test(f.url)],
  ["parse (tree-sitter)", (f) => /tree-sitter|policy\/bash-parser\.ts/.test(f.url)],
  ["parse agreement (two trees compared)", (f) => /policy\/(parse-agreement|dual-parser)\.ts/.test(f.url)],
  ["read-only proof", (f) => /policy\/proof\//.test(f.url)],
  ["previews (rules, probes)", (f) => /\/preview\//.test(f.url)],
  [
    "classify: walk and rules",
    (f) =>
      /policy\/(walk|classify|rules\/|brace|words|redirects|lint|command-key|command-view|paths|program-path|dynamic|stdin|unreadable|hidden)/.test(
        f.url,
      ),
  ],
  ["redaction", (f) => /policy\/(redact|secrets\/)/.test(f.url)],
  ["schema validation (zod, ajv)", (f) => /node_modules\/(zod|ajv)\//.test(f.url)],
  ["DB: kysely (query building)", (f) => /node_modules\/kysely\//.test(f.url)],
  ["DB: driver (pg, PGlite)", (f) => /node_modules\/(pg|pg-protocol|pg-pool|@electric-sql)\//.test(f.url)],
  ["store/ (our code)", (f) => /\/store\//.test(f.url)],
  ["queue and events: BullMQ, ioredis", (f) => /node_modules\/(bullmq|ioredis|msgpackr)\//.test(f.url)],
  ["ssh2 (crypto, channels)", (f) => /node_modules\/ssh2\//.test(f.url)],
  ["jobs/ssh (wrapper words, jail script, output)", (f) => /jobs\/ssh\//.test(f.url)],
  ["MCP SDK (JSON-RPC)", (f) => /@modelcontextprotocol/.test(f.url)],
  ["logger (pino)", (f) => /node_modules\/(pino|thread-stream|sonic-boom)\//.test(f.url)],
  ["jobs/execution (run service, worker)", (f) => /jobs\/execution\//.test(f.url)],
  ["mcp-server/", (f) => /mcp-server\//.test(f.url)],
  ["agent/", (f) => /\/agent\//.test(f.url) && !/node_modules/.test(f.url)],
  ["bot/", (f) => /\/bot\//.test(f.url) && !/node_modules/.test(f.url)],
];
const OTHER = "node internals, module loading, other";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "from-frame": { type: "string" }, top: { type: "string" } },
});
const file = positionals[0];
if (!file)
  throw new Error("usage: node scripts/cpu-profile-table.ts <file.cpuprofile> [--from-frame <url part>]");
const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const stageOf = new Map<number, string>();
function stage(id: number): string {
  const known = stageOf.get(id);
  if (known !== undefined) return known;
  let found = OTHER;
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at)!.callFrame;
    const hit = STAGES.find(([, matches]) => matches(frame));
    if (hit) {
      found = hit[0];
      break;
    }
  }
  stageOf.set(id, found);
  return found;
}
const hasFrame = (id: number, part: string): boolean => {
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at))
    if (byId.get(at)!.callFrame.url.includes(part)) return true;
  return false;
};

const times: number[] = [];
let clock = profile.startTime;
for (const delta of profile.timeDeltas) {
  clock += delta;
  times.push(clock);
}
let first = 0;
let last = profile.samples.length - 1;
const fromFrame = values["from-frame"];
if (fromFrame)
  first = Math.max(
    0,
    profile.samples.findIndex((id) => hasFrame(id, fromFrame)),
  );
if (process.env.FROM) first = times.findIndex((t) => t >= Number(process.env.FROM));
if (process.env.TO) last = times.findLastIndex((t) => t <= Number(process.env.TO));

const perStage = new Map<string, number>();
const perFunction = new Map<string, number>();
let total = 0;
for (let i = first; i <= last; i++) {
  // a sample's time is the gap to the next one
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const id = profile.samples[i]!;
  perStage.set(stage(id), (perStage.get(stage(id)) ?? 0) + ms);
  const frame = byId.get(id)!.callFrame;
  const name = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/.*\//, "")}:${frame.lineNumber}`;
  perFunction.set(name, (perFunction.get(name) ?? 0) + ms);
  total += ms;
}
const busy = total - (perStage.get(IDLE) ?? 0);
const out = (line: string) => process.stdout.write(`${line}\n`);
out(
  `${last - first + 1} samples over ${Math.round(total)} ms; busy (not idle, GC or program) ${Math.round(busy)} ms`,
);
out("| where | ms | share of samples |");
out("| --- | ---: | ---: |");
for (const [name, ms] of [...perStage].sort((a, b) => b[1] - a[1]))
  out(`| ${name} | ${Math.round(ms)} | ${((100 * ms) / total).toFixed(1)} % |`);
const top = Number(values.top ?? 0);
if (top > 0) {
  out(`\nfunctions with the most samples of their own:`);
  for (const [name, ms] of [...perFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    out(`${ms.toFixed(1).padStart(9)} ms  ${name}`);
}
