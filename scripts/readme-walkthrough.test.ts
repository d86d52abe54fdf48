import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type SshLab, sshLabUnavailable, startSshLab } from "../test-support/sshd/ssh-lab.ts";
import { blocksRunBy, type DocBlock, docBlocks, REPO } from "./doc-blocks.ts";

// The README's path, walked as a newcomer walks it: a clean clone of this tree, a home whose
// ~/.ssh/config names one host (a real sshd on loopback), no DATABASE_URL, no REDIS_URL, no oikos
// settings, and every block the README marks `sh test=walkthrough` run as written, in order, from a
// pipe. The install block before them (`sh test=install`, `npm ci`) is what .ci/run installs its own
// clean clone with; here the clone shares that installation instead of installing it again.

const unavailable = await sshLabUnavailable();
const blocks = blocksRunBy("walkthrough");

interface Ran {
  code: number | null;
  output: string;
}

function runBlock(block: DocBlock, cwd: string, env: NodeJS.ProcessEnv, body = block.body): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-euo", "pipefail", "-c", body], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

/** Durations and clock times differ from run to run; everything else the README shows must not. */
const steady = (line: string) =>
  line
    .trimEnd()
    .replace(/in \d+(\.\d+)? s\b/g, "in N s")
    .replace(/at \d\d:\d\d UTC/g, "at HH:MM UTC");

describe("the README's path on a clean clone", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let root: string;
  let clone: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "myhost" }] });
    root = await mkdtemp(join(tmpdir(), "oikos-walkthrough-"));
    clone = join(root, "oikos");
    // This tree as committed plus its tracked changes (a stash commit), cloned as a newcomer would.
    const tree = execFileSync("git", ["stash", "create"], { cwd: REPO, encoding: "utf8" }).trim() || "HEAD";
    execFileSync("git", ["clone", "--quiet", "--shared", "--no-checkout", REPO, clone]);
    execFileSync("git", ["checkout", "--quiet", "--detach", tree], { cwd: clone });
    await symlink(join(REPO, "node_modules"), join(clone, "node_modules"));
    const home = join(root, "home");
    await mkdir(join(home, ".ssh"), { recursive: true, mode: 0o700 });
    const host = lab.host("myhost");
    await writeFile(
      join(home, ".ssh", "config"),
      `Host myhost\n  HostName ${host.host}\n  Port ${host.port}\n  User ${lab.username}\n`,
    );
    await writeFile(join(home, ".ssh", "id_ed25519"), lab.privateKey);
    await chmod(join(home, ".ssh", "id_ed25519"), 0o600);
    const npmCache = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
    env = {
      PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: home,
      LANG: "C.UTF-8",
      npm_config_cache: npmCache,
      npm_config_offline: "true", // npx finds oikos in the clone; it never needs the registry
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
    };
  });

  after(async () => {
    await lab?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  test("the README marks its path: install, the demo, first host, the terminal chat", () => {
    assert.deepEqual(
      blocksRunBy("install").map((b) => b.body),
      ["npm ci"],
    );
    assert.equal(blocks.length, 3, blocks.map((b) => `${b.file}:${b.line}`).join(", "));
    assert.match(blocks[0]!.body, /^npx oikos demo$/m);
    assert.match(blocks[1]!.body, /npx oikos import ssh-config ~\/\.ssh\/config/);
    assert.match(blocks[2]!.body, /!status/);
  });

  test("`oikos demo`: exit 0 and the very thread the README shows", async () => {
    const ran = await runBlock(blocks[0]!, clone, env);
    assert.equal(ran.code, 0, ran.output);
    const shown = docBlocks("README.md").find((b) => b.language === "text");
    assert.ok(shown, "README shows a transcript");
    const printed = ran.output.split("\n").map(steady);
    let from = 0;
    for (const line of shown.body.split("\n").map(steady)) {
      const at = printed.indexOf(line, from);
      assert.ok(at >= 0, `the demo printed, in this order, the README's line:\n${line}\n\n${ran.output}`);
      from = at + 1;
    }
    assert.match(ran.output, /The task closed as success/);
  });

  test("first host: import the ssh config, then `oikos check` the host", async () => {
    const ran = await runBlock(blocks[1]!, clone, env);
    assert.equal(ran.code, 0, ran.output);
    assert.match(ran.output, /host:myhost/);
    assert.match(ran.output, /reachable: yes/);
    assert.match(ran.output, /read-only jail: works \(engine unshare/);
  });

  test("the terminal chat from a pipe: `!status` is echoed and answered", async () => {
    const ran = await runBlock(blocks[2]!, clone, env);
    assert.equal(ran.code, 0, ran.output);
    assert.match(ran.output, /you> !status/);
    assert.match(ran.output, /oikos status\n\s+database:\s+PGlite \(embedded\)/);
    assert.match(ran.output, /model:\s+not configured/);
  });
});
