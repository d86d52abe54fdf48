// A scenario-defined fake command for the simulated homelab (runs inside an sshd session as the lab
// user). Usage: node fake-tool.mjs <tool> [args...]. Rules and variables live in
// $OIKOS_LAB_STATE/world.json, written by the eval harness; every call is logged to calls.jsonl.
//
// rule: { tool, args?: regex over the joined args, when?: {var: value}, hang_while?: {var: value},
//         sleep_ms?, set?: {var: value}, stdout?: "template {{var}}", stderr?, exit? }
import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const stateDir = process.env.OIKOS_LAB_STATE ?? ".";
const worldFile = join(stateDir, "world.json");
const [tool = "", ...args] = process.argv.slice(2);
const joined = args.join(" ");

const readWorld = () => {
  try {
    return JSON.parse(readFileSync(worldFile, "utf8"));
  } catch {
    return { vars: {}, rules: [] };
  }
};
const matches = (conditions, vars) =>
  Object.entries(conditions ?? {}).every(([key, value]) => String(vars[key]) === String(value));
const render = (text, vars) =>
  String(text ?? "").replace(/\{\{(\w+)\}\}/g, (_, key) => String(vars[key] ?? ""));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const world = readWorld();
appendFileSync(join(stateDir, "calls.jsonl"), `${JSON.stringify({ tool, args: joined, at: Date.now() })}\n`);
const rule = (world.rules ?? []).find(
  (r) =>
    r.tool === tool &&
    (r.args === undefined || new RegExp(r.args).test(joined)) &&
    matches(r.when, world.vars ?? {}),
);
if (!rule) {
  process.stderr.write(`${tool}: command not found\n`);
  process.exit(127);
}
if (rule.hang_while) {
  while (matches(rule.hang_while, readWorld().vars ?? {})) await sleep(200);
}
if (rule.sleep_ms) await sleep(rule.sleep_ms);
let vars = readWorld().vars ?? {};
if (rule.set) {
  const latest = readWorld();
  latest.vars = { ...(latest.vars ?? {}), ...rule.set };
  const tmp = `${worldFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(latest));
  renameSync(tmp, worldFile);
  vars = latest.vars;
}
if (rule.stdout !== undefined) process.stdout.write(`${render(rule.stdout, vars).replace(/\n?$/, "\n")}`);
if (rule.stderr !== undefined) process.stderr.write(`${render(rule.stderr, vars).replace(/\n?$/, "\n")}`);
process.exit(rule.exit ?? 0);
