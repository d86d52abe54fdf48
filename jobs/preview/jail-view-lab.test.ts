import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { chown, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import type { JailFacts } from "../../policy/jail.ts";
import { ensureLabUser } from "../../test-support/sshd/lab-prerequisites.ts";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { InMemoryHostKeyStore } from "../ssh/host-key-store.ts";
import { SshPool } from "../ssh/ssh-pool.ts";
import type { Target } from "../ssh/target.ts";
import { TransportRouter } from "../ssh/transport-router.ts";
import { createPlanPreviewer } from "./create.ts";

/**
 * Previews look with the view the command will have (issue #37). The approved command runs
 * unjailed, on the real /tmp; the probes run in the read-only jail. While the jail gives its
 * commands a private /tmp, a path there is not previewed (the preview would read an empty
 * directory); once the jail shows the real /tmp (read-only, with a private scratch elsewhere), the
 * same preview is shown and must hold. The jail of issue #27 does the latter, for /tmp, /var/tmp and
 * /dev/shm alike (TMPDIR is its private scratch): the jailed probes must see the real file, and the
 * preview must hold after the run. With the jail off the probes see the real file too.
 */

const unavailable = await sshLabUnavailable();
const classifier = await loadClassifier();
const BASES = ["/tmp", "/var/tmp", "/dev/shm"] as const;

describe("a path in /tmp, /var/tmp or /dev/shm is previewed only where the probes see the real one", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  let target: Target;
  const dirs: Record<string, string> = {};

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "tmpview" }], baseDir: "/var/lib" });
    pool = new SshPool({ auth: labAuth(lab.host("tmpview")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    target = labSshTarget(lab.host("tmpview"));
    const user = await ensureLabUser();
    for (const base of BASES) {
      const dir = await mkdtemp(`${base}/oikos-view-`);
      await chown(dir, user.uid, user.gid);
      await writeFile(`${dir}/app.conf`, "listen = 8080\n");
      await chown(`${dir}/app.conf`, user.uid, user.gid);
      dirs[base] = dir;
    }
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
    for (const dir of Object.values(dirs)) await rm(dir, { recursive: true, force: true });
  });

  const sha = async (path: string) =>
    createHash("sha256")
      .update(await readFile(path))
      .digest("hex");

  for (const [mode, jail] of [
    ["jailed", { mode: "auto", availability: { state: "unknown" } }],
    ["jail off", { mode: "off", availability: { state: "unknown" } }],
  ] as const)
    for (const base of BASES)
      test(`${mode}, ${base}: shown and right where the probes see the file, else not previewed`, async () => {
        const dir = dirs[base] as string;
        const facts: JailFacts = jail;
        const sees = await router.exec(target, `test -e ${dir}/app.conf`, { jail: mode === "jailed" });
        const probesSeeIt = sees.exitCode === 0;
        // the jail (issue #27) shows the real /tmp, /var/tmp and /dev/shm read-only, TMPDIR a private scratch
        assert.ok(probesSeeIt, `the jailed probes do not see ${base}: ${sees.stderr}`);
        const previewer = createPlanPreviewer({ classifier, runner: router, probeTimeoutMs: 30_000 });
        const command = `echo 'workers = 2' >> ${dir}/app.conf`;
        const preview = await previewer.compute({ target, targetType: "host", jail: facts, command });
        if (!probesSeeIt) {
          assert.notEqual(preview.status, "available", "the probes saw a private /tmp, and showed it");
          assert.match(preview.status === "available" ? "" : preview.reason, /read-only jail replaces/);
          return;
        }
        if (base === "/dev/shm" && preview.status !== "available") {
          // the proof reads any path under /dev as a device node whose opening can act, so it does
          // not preview /dev/shm at all, jailed or not — a refusal that says so, never the jail's view
          assert.match(preview.reason, /is the device \/dev\/shm\//, JSON.stringify(preview));
          return;
        }
        assert.equal(preview.status, "available", JSON.stringify(preview));
        if (preview.status !== "available") return;
        await router.exec(target, command);
        const [state] = preview.expectations;
        assert.equal(state?.kind, "file_state");
        if (state?.kind === "file_state") assert.equal(await sha(`${dir}/app.conf`), state.after?.sha256);
        await writeFile(`${dir}/app.conf`, "listen = 8080\n");
      });
});
