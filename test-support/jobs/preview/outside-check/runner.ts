import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { createPlanPreviewer } from "../../../../jobs/preview/create.ts";
import type { PlanPreviewer, PreviewTarget } from "../../../../jobs/preview/previewer.ts";
import { createSshTransport } from "../../../../jobs/ssh/create-ssh-transport.ts";
import { loadClassifier } from "../../../../policy/classify.ts";
import type { PlanPreview } from "../../../../policy/preview/types.ts";
import { labSshTarget } from "../../../sshd/lab-targets.ts";
import { type SshLab, startSshLab } from "../../../sshd/ssh-lab.ts";
import { ensureSudoLabUser } from "../../../sshd/sudo-lab-user.ts";
import { OUTSIDE_CASES, type OutsideCase } from "./cases.ts";

const run = promisify(execFile);

/** One entry of a tree: what the differential compares. */
export interface Entry {
  type: "file" | "dir" | "link" | "other";
  mode: number;
  uid: number;
  gid: number;
  nlink: number;
  hash: string;
}

export type Verdict = "correct" | "honest" | "understated" | "misattributed" | "wrong";

export interface CaseResult {
  id: string;
  cls: string;
  command: string;
  verdict: Verdict;
  why: string;
  previewStatus: PlanPreview["status"];
  previewText: string;
  changes: string[];
  outcome: string;
}

async function walk(root: string, into: Map<string, Entry>): Promise<void> {
  let st: Awaited<ReturnType<typeof lstat>>;
  try {
    st = await lstat(root);
  } catch {
    return;
  }
  const base = { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid, nlink: st.nlink };
  if (st.isSymbolicLink()) into.set(root, { type: "link", ...base, hash: await readlink(root) });
  else if (st.isFile())
    into.set(root, {
      type: "file",
      ...base,
      hash: createHash("sha256")
        .update(await readFile(root))
        .digest("hex")
        .slice(0, 16),
    });
  else if (st.isDirectory()) {
    into.set(root, { type: "dir", ...base, hash: "" });
    for (const name of (await readdir(root)).sort()) await walk(join(root, name), into);
  } else into.set(root, { type: "other", ...base, hash: "" });
}

export async function snapshot(roots: string[]): Promise<Map<string, Entry>> {
  const into = new Map<string, Entry>();
  for (const root of roots) await walk(root, into);
  return into;
}

/** Every path whose entry changed, appeared or went (each with what changed). */
export function treeDiff(before: Map<string, Entry>, after: Map<string, Entry>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, a] of before) {
    const b = after.get(path);
    if (!b) out.set(path, "deleted");
    else {
      const what = (["type", "mode", "uid", "gid", "nlink", "hash"] as const).filter((k) => a[k] !== b[k]);
      // a directory's link count moves with its subdirectories; its own change is what counts
      const own = a.type === "dir" ? what.filter((k) => k !== "nlink") : what;
      if (own.length > 0) out.set(path, own.join(","));
    }
  }
  for (const path of after.keys()) if (!before.has(path)) out.set(path, "created");
  return out;
}

export interface OutsideLab {
  lab: SshLab;
  previewer: PlanPreviewer;
  where: PreviewTarget;
  user: string;
  exec(command: string): Promise<{ exitCode: number | null; stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

export async function startOutsideLab(): Promise<OutsideLab> {
  const user = await ensureSudoLabUser();
  const lab = await startSshLab({ hosts: [{ name: "oc" }], loginAs: user, baseDir: "/var/lib" });
  const ssh = createSshTransport({ privateKeyPath: lab.privateKeyPath });
  const classifier = await loadClassifier();
  const previewer = createPlanPreviewer({ classifier, runner: ssh.router });
  const where: PreviewTarget = {
    target: labSshTarget(lab.host("oc")),
    targetType: "host",
    jail: { mode: "required", availability: { state: "available" } },
  };
  return {
    lab,
    previewer,
    where,
    user: user.username,
    exec: async (command) => {
      const r = await ssh.router.exec(where.target, command, { timeoutMs: 20_000 });
      return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
    },
    stop: async () => {
      await ssh.pool.close();
      await lab.stop();
      // the scratch trees of every case, by name
      const trees = OUTSIDE_CASES.flatMap((c) => Object.values(dirsOf(c.id)));
      await run("rm", ["-rf", "--", ...trees]);
      await run("rm", ["-df", "--", "/srv/oc"]).catch(() => undefined);
    },
  };
}

export function dirsOf(id: string): Record<"D" | "T" | "V" | "S", string> {
  return { D: `/srv/oc/${id}`, T: `/tmp/oc-${id}`, V: `/var/tmp/oc-${id}`, S: `/dev/shm/oc-${id}` };
}

function fill(text: string, dirs: Record<string, string>, user: string): string {
  // \u0000 and \u0001 stand for brace words the {D} placeholders would otherwise swallow
  return text
    .replace("\u0000", "{a,b}")
    .replace("\u0001", "{f,g}")
    .replace(/\{([DTVSU])\}/g, (_, k: string) => (k === "U" ? user : (dirs[k] as string)));
}

async function sh(script: string, env: Record<string, string>): Promise<void> {
  await run("bash", ["-euc", script], { env: { ...process.env, ...env } });
}

const STOP = new Set(["/", "/srv", "/srv/oc", "/tmp", "/var", "/var/tmp", "/dev", "/dev/shm", "/etc"]);

function mentioned(text: string, path: string): boolean {
  // the path itself or a directory above it (rm -r, a directory copied)
  let p = path;
  while (p.length > 1) {
    if (new RegExp(`${p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9._-])`).test(text)) return true;
    p = p.slice(0, p.lastIndexOf("/")) || "/";
    if (STOP.has(p)) break;
  }
  return false;
}

/** Preview, run for real, compare file by file; the verdict (automatic, conservative). */
export async function runCase(lab: OutsideLab, c: OutsideCase): Promise<CaseResult> {
  const dirs = dirsOf(c.id);
  const env = { ...dirs, U: lab.user };
  await sh(`rm -rf "$D" "$T" "$V" "$S"; mkdir -p "$D" "$T" "$V" "$S"`, env);
  await sh(c.setup, env);
  await sh(`chown -R "$U:" "$D" "$T" "$V" "$S"`, env);
  if (c.rootSetup) await sh(c.rootSetup, env);
  const roots = [dirs.D, dirs.T, dirs.V, dirs.S, ...(c.extraRoots ?? [])];
  const command = fill(c.command, dirs, lab.user);
  const before = await snapshot(roots);
  let preview = await lab.previewer.compute({ ...lab.where, command });
  const probeChanged = treeDiff(before, await snapshot(roots));
  if (c.race) {
    // the card was shown; something changes the tree; the approval recomputes the preview
    await sh(c.race, env);
    const again = await lab.previewer.compute({ ...lab.where, command });
    const sameCard =
      again.status === "available" &&
      preview.status === "available" &&
      again.fingerprint === preview.fingerprint;
    if (!sameCard)
      preview = { status: "unavailable", reason: "asked again: the preview changed", computedAt: "" };
  }
  const ran = await lab.exec(command);
  const after = await snapshot(roots);
  const diff = treeDiff(before, after);
  const changes = [...diff].map(([p, w]) => `${p}: ${w}`);
  const text = preview.status === "available" ? preview.text : preview.reason;
  let outcome = "-";
  let verdict: Verdict;
  let why: string;
  if (probeChanged.size > 0) {
    verdict = "wrong";
    why = `the preview itself changed ${[...probeChanged.keys()].join(", ")}`;
  } else if (preview.status !== "available") {
    verdict = "honest";
    why = preview.status;
  } else {
    const checks = [];
    for (const expectation of preview.expectations)
      checks.push(await lab.previewer.verify(expectation, lab.where));
    outcome = checks
      .map((o) => `${o.status}: ${o.detail}`)
      .join(" | ")
      .slice(0, 400);
    const mismatch = ownOracle(preview.expectations, before, after, diff);
    const unnamed = [...diff.keys()].filter(
      (p) => !mentioned(text, p) && !(c.unnamedOk ?? []).some((u) => fill(u, dirs, lab.user) === p),
    );
    const partial = preview.notPreviewed.length > 0;
    if (unnamed.length > 0 && !partial) {
      verdict = "understated";
      why = `changed but not named: ${unnamed.join(", ")}`;
    } else if (unnamed.length > 0) {
      verdict = "honest";
      why = `partly previewed; unnamed ${unnamed.join(", ")} (check: covered by a not-previewed part?)`;
    } else if (mismatch.length > 0 && !partial) {
      verdict = "wrong";
      why = `the preview's own numbers are not what happened: ${mismatch.join("; ")}`;
    } else if (c.expect && !c.expect.test(text)) {
      verdict = "understated";
      why = `preview lacks ${c.expect}`;
    } else if (c.reject?.test(text)) {
      verdict = "wrong";
      why = `preview says ${c.reject}`;
    } else if (diff.size === 0 && ran.exitCode === 0 && c.expectChange) {
      verdict = "wrong";
      why = "nothing changed";
    } else {
      verdict = "correct";
      why = partial ? "all changes named (partly previewed)" : "all changes named";
    }
    if (verdict === "correct" && checks.some((o) => o.status === "differs")) {
      // after a partly previewed line the parts not previewed change things too: "differs" is true
      if (partial) {
        verdict = "honest";
        why = `partly previewed; the post-run check says differs (honestly): ${outcome}`;
      } else {
        verdict = "wrong";
        why = `post-run check says differs: ${outcome}`;
      }
    }
  }
  return {
    id: c.id,
    cls: c.cls,
    command,
    verdict,
    why,
    previewStatus: preview.status,
    previewText: text,
    changes,
    outcome: `${outcome} [exit ${ran.exitCode}${ran.stderr ? `: ${ran.stderr.trim().slice(0, 120)}` : ""}]`,
  };
}

/** Independent of the product's post-run check: the preview's predicted hashes and counts against the tree. */
function ownOracle(
  expectations: Extract<PlanPreview, { status: "available" }>["expectations"],
  before: Map<string, Entry>,
  after: Map<string, Entry>,
  diff: Map<string, string>,
): string[] {
  const out: string[] = [];
  for (const e of expectations) {
    if (e.kind === "file_state") {
      const now = after.get(e.path);
      if (e.after === null) {
        if (now) out.push(`${e.path} shown removed, still there`);
      } else if (!now) out.push(`${e.path} shown written, absent`);
      else if (e.after.type === "file" && !e.after.sha256.startsWith(now.hash))
        out.push(`${e.path} content differs`);
      else if (e.after.mode !== null && e.after.mode !== now.mode)
        out.push(`${e.path} mode ${now.mode.toString(8)} not ${e.after.mode.toString(8)}`);
      else if (e.after.uid !== null && e.after.uid !== now.uid)
        out.push(`${e.path} owner ${now.uid} not ${e.after.uid}`);
    }
    if (e.kind === "tree_removed") {
      const gone = [...before.keys()].filter(
        (p) => (p === e.root || p.startsWith(`${e.root}/`)) && diff.get(p) === "deleted",
      );
      if (gone.length !== e.names)
        out.push(`${e.root}: ${gone.length} names deleted, preview said ${e.names}`);
    }
  }
  return out;
}
