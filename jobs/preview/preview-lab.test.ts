import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import type { JailFacts } from "../../policy/jail.ts";
import type { AvailablePreview, PlanPreview } from "../../policy/preview/types.ts";
import { createScratchTree, type ScratchTree } from "../../test-support/jail/scratch-tree.ts";
import { ensureLabUser } from "../../test-support/sshd/lab-prerequisites.ts";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { installPreviewWorld, type PreviewWorld } from "../../test-support/sshd/preview-world.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import { InMemoryHostKeyStore } from "../ssh/host-key-store.ts";
import { SshPool } from "../ssh/ssh-pool.ts";
import type { Target } from "../ssh/target.ts";
import { TransportRouter } from "../ssh/transport-router.ts";
import { createPlanPreviewer } from "./create.ts";
import type { PlanPreviewer, PreviewTarget } from "./previewer.ts";

/**
 * Plan previews on a real loopback sshd, as the unprivileged lab user, with the read-only jail in
 * `auto` mode: every kind against fake apt-get, docker, systemctl, pct, qm and zfs (one JSON world,
 * test-support/sshd/preview-world.ts) and real files in a scratch tree. The oracle executes: after
 * all previews the world file and the scratch tree are byte for byte what they were; then the
 * commands run as approved and the previews' expectations are checked against what happened.
 */

const unavailable = await sshLabUnavailable();
const classifier = await loadClassifier();

interface Run {
  command: string;
  askedJail: boolean;
  jail: ExecResult["jail"];
}

describe("plan previews on a lab host (every kind, jailed where the host can jail)", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  let world: PreviewWorld;
  let tree: ScratchTree;
  let where: PreviewTarget;
  let previewer: PlanPreviewer;
  let jailWorks: boolean;
  const runs: Run[] = [];
  let S: string;

  before(async () => {
    // Outside /tmp: the jail gives its commands a private /tmp, and the fakes must be visible there.
    lab = await startSshLab({ hosts: [{ name: "prev" }], baseDir: "/var/lib" });
    pool = new SshPool({ auth: labAuth(lab.host("prev")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    world = await installPreviewWorld(lab, "prev");
    tree = await createScratchTree(await ensureLabUser());
    S = tree.root;
    const target: Target = labSshTarget(lab.host("prev"));
    const jail: JailFacts = { mode: "auto", availability: { state: "unknown" } };
    where = { target, targetType: "host", jail };
    const recording = {
      async exec(t: Target, command: string, options?: ExecOptions): Promise<ExecResult> {
        const result = await router.exec(t, command, options);
        runs.push({ command, askedJail: options?.jail === true, jail: result.jail });
        return result;
      },
    };
    previewer = createPlanPreviewer({ classifier, runner: recording, probeTimeoutMs: 30_000 });
    jailWorks = (await router.exec(target, "true", { jail: true })).jail?.state === "jailed";
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
    await tree?.remove();
  });

  const preview = (command: string) => previewer.compute({ ...where, command: command.replaceAll("$S", S) });
  const available = (p: PlanPreview, command: string): AvailablePreview => {
    assert.equal(p.status, "available", `${command}: ${JSON.stringify(p)}`);
    return p as AvailablePreview;
  };

  test("every kind is previewed, nothing on the host changes, and every probe asked for the jail", async () => {
    const worldBefore = await world.hash();
    const treeBefore = await tree.snapshot();
    const cases: [command: string, kind: string, shows: string[]][] = [
      [
        "sed -i 's/^listen = 8080/listen = 9090/' $S/etc/app.conf",
        "file_diff",
        ["-listen = 8080", "+listen = 9090", " workers = 4"],
      ],
      ["echo 'workers = 8' >> $S/etc/app.conf", "file_diff", ["+workers = 8"]],
      ["printf 'a\\nb\\n' | tee $S/etc/new.conf >/dev/null", "file_diff", ["does not exist yet", "+a", "+b"]],
      [
        "tee -a $S/etc/hosts >/dev/null <<'EOF'\n10.0.0.5 nas\nEOF",
        "file_diff",
        [" 127.0.0.1 localhost", "+10.0.0.5 nas"],
      ],
      ["cp $S/etc/hosts $S/etc/app.conf", "file_diff", ["-listen = 8080", "+127.0.0.1 localhost"]],
      ["apt-get install -y htop", "packages", ["install (1): htop 3.2.2-2", "upgrade (0)", "remove (0)"]],
      ["apt-get upgrade -y", "packages", ["upgrade (1): openssl → 3.0.13-1"]],
      ["apt-get purge -y apache2", "packages", ["remove (1): apache2"]],
      [
        "docker compose up -d",
        "containers",
        ["web: nginx:1.27 — configuration changed: recreated", "db: postgres:16 — unchanged"],
      ],
      [
        "docker compose pull web",
        "containers",
        ["web: pulls nginx:1.27 (the container runs nginx:1.25, running)"],
      ],
      ["docker rm -f old", "containers", ["/old redis:6 exited"]],
      ["docker rmi redis:6", "containers", ["sha256:6e2f redis:6", "containers using redis:6: old exited"]],
      [
        "systemctl restart nfs-server.service",
        "service",
        ["nfs-server.service: active (enabled) — restart", "nfs-kernel-server.service"],
      ],
      ["pct set 101 --memory 2048 --cores 1", "guest", ["memory: 512 → 2048", "cores: 1 (unchanged)"]],
      [
        "pct destroy 101 --purge",
        "guest",
        ["mp0: local-zfs:subvol-101-disk-1", "before-upgrade", "snapshots (1)", "--purge"],
      ],
      ["qm destroy 200", "guest", ["disks (1):", "scsi0: local-lvm:vm-200-disk-0,size=64G"]],
      [
        "zfs destroy -r tank/old",
        "storage",
        ["destroys 3 dataset(s)/snapshot(s)", "tank/old/a", "tank/old@snap1"],
      ],
      [
        "zfs destroy tank/old",
        "storage",
        ["zfs refuses this without -r: tank/old has 2 children or snapshots"],
      ],
      ["rm -rf $S/var/log", "storage", ["deletes 2 name(s) (1 directories, 1 files)", "/var/log"]],
    ];
    for (const [command, kind, shows] of cases) {
      const shown = available(await preview(command), command);
      assert.equal(shown.kind, kind, command);
      for (const text of shows)
        assert.ok(shown.text.includes(text), `${command}: no ${JSON.stringify(text)} in\n${shown.text}`);
      assert.match(shown.fingerprint, /^[0-9a-f]{64}$/);
    }
    // The oracle: nothing changed, not a byte of the world nor a file of the tree.
    assert.equal(await world.hash(), worldBefore, "a preview changed the fake world");
    assert.deepEqual(await tree.snapshot(), treeBefore, "a preview changed the scratch tree");
    assert.ok(runs.length > 0);
    for (const run of runs) {
      // a probe whose proof spec sends it outside the jail by name (pct, qm: Proxmox cluster IPC) runs unjailed, as recorded
      const byName = (classifier.classify(run.command, "host").grants ?? []).some(
        (g) => g.resource === "unjailed",
      );
      assert.ok(run.askedJail || byName, `${run.command} ran without asking for the jail`);
      if (jailWorks && !byName) assert.equal(run.jail?.state, "jailed", `${run.command} did not run jailed`);
    }
  });

  test("payloads in the edit never run: the preview declines, and the host is unchanged", async () => {
    const treeBefore = await tree.snapshot();
    const before = runs.length;
    for (const command of [
      "sed -i 's/8080/$(touch $S/pwned)/e' $S/etc/app.conf",
      "sed -i '1w $S/etc/hosts' $S/etc/app.conf",
      "echo $(touch $S/pwned) > $S/etc/app.conf",
      "cat <<EOF > $S/etc/app.conf\n$(touch $S/pwned)\nEOF",
      "touch $S/pwned | tee $S/etc/app.conf",
    ]) {
      const result = await preview(command);
      assert.equal(result.status, "unavailable", `${command}: ${JSON.stringify(result)}`);
    }
    assert.equal(runs.length, before, "a declined preview ran something");
    assert.deepEqual(await tree.snapshot(), treeBefore);
  });

  test("a producer that never stops is cut by the output cap and the time limit: failed, nothing written", async () => {
    const bounded = createPlanPreviewer({
      classifier,
      runner: router,
      probeTimeoutMs: 3_000,
      maxProbeOutputBytes: 4_096,
    });
    const treeBefore = await tree.snapshot();
    for (const producer of ["seq inf", "sleep 100"]) {
      const result = await bounded.compute({ ...where, command: `${producer} > ${S}/etc/app.conf` });
      assert.equal(result.status, "failed", JSON.stringify(result));
    }
    assert.deepEqual(await tree.snapshot(), treeBefore);
  });

  test("equal state gives equal fingerprints; a changed file changes it", async () => {
    const command = "sed -i 's/workers = 4/workers = 6/' $S/home/notes.txt $S/etc/app.conf";
    const first = available(await preview(command), command);
    const again = available(await preview(command), command);
    assert.equal(again.fingerprint, first.fingerprint);
    await router.exec(where.target, `echo 'workers = 4 # tuned' >> ${S}/etc/app.conf`);
    const changed = available(await preview(command), command);
    assert.notEqual(changed.fingerprint, first.fingerprint);
  });

  test("after the run: the file and the packages are what the preview showed, or the check says how they differ", async () => {
    const edit = `sed -i 's/^listen = .*/listen = 7070/' ${S}/etc/app.conf`;
    const filePreview = available(await previewer.compute({ ...where, command: edit }), edit);
    const [fileExpect] = filePreview.expectations;
    assert.equal(fileExpect?.kind, "file_state");
    assert.equal((await previewer.verify(fileExpect as never, where)).status, "differs", "before the run");
    await router.exec(where.target, edit);
    const checked = await previewer.verify(fileExpect as never, where);
    assert.equal(checked.status, "matches", checked.detail);
    await router.exec(where.target, `echo drift >> ${S}/etc/app.conf`);
    assert.equal((await previewer.verify(fileExpect as never, where)).status, "differs");

    const install = "apt-get install -y htop";
    const packages = available(await previewer.compute({ ...where, command: install }), install);
    const [packageExpect] = packages.expectations;
    assert.deepEqual(packageExpect, {
      kind: "packages",
      manager: "apt",
      install: [{ name: "htop", version: "3.2.2-2" }],
      upgrade: [],
      remove: [],
    });
    assert.equal((await previewer.verify(packageExpect as never, where)).status, "differs");
    await router.exec(where.target, install);
    assert.equal((await world.read()).dpkg.htop, "3.2.2-2", "the approved command ran");
    const after = await previewer.verify(packageExpect as never, where);
    assert.equal(after.status, "matches", after.detail);
  });
});

describe("plan previews on a host that cannot jail", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let world: PreviewWorld;
  let previewer: PlanPreviewer;
  let target: Target;
  const runs: string[] = [];

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "nojail", sessionsChrooted: true }], baseDir: "/var/lib" });
    pool = new SshPool({ auth: labAuth(lab.host("nojail")), hostKeys: new InMemoryHostKeyStore() });
    const router = new TransportRouter({ pool });
    world = await installPreviewWorld(lab, "nojail");
    target = labSshTarget(lab.host("nojail"));
    const recording = {
      async exec(t: Target, command: string, options?: ExecOptions): Promise<ExecResult> {
        const result = await router.exec(t, command, options);
        runs.push(`${options?.jail === true ? "jailed" : "unjailed"} ${command}`);
        return result;
      },
    };
    previewer = createPlanPreviewer({ classifier, runner: recording, probeTimeoutMs: 30_000 });
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
  });

  test("jail required and known unavailable: nothing runs; required and unknown: the jail is tried, nothing else", async () => {
    const command = "systemctl restart nginx.service";
    const known = await previewer.compute({
      command,
      target,
      targetType: "host",
      jail: { mode: "required", availability: { state: "unavailable", reason: "no user namespaces" } },
    });
    assert.equal(known.status, "failed", JSON.stringify(known));
    assert.equal(runs.length, 0, "a preview ran where the jail is required and cannot start");
    const unknown = await previewer.compute({
      command,
      target,
      targetType: "host",
      jail: { mode: "required", availability: { state: "unknown" } },
    });
    assert.equal(unknown.status, "failed", JSON.stringify(unknown));
    assert.ok(runs.length > 0 && runs.every((run) => run.startsWith("jailed ")), runs.join("\n"));
  });

  test("jail auto: where it cannot start, the probes do not run either (fail closed, #27); with the operator's allowance they run unjailed", async () => {
    const before = await world.hash();
    runs.length = 0;
    const closed = await previewer.compute({
      command: "systemctl restart nginx.service",
      target,
      targetType: "host",
      jail: { mode: "auto", availability: { state: "unknown" } },
    });
    assert.equal(closed.status, "failed", JSON.stringify(closed));
    assert.ok(runs.length > 0 && runs.every((run) => run.startsWith("jailed ")), runs.join("\n"));
    runs.length = 0;
    const shown = await previewer.compute({
      command: "systemctl restart nginx.service",
      target,
      targetType: "host",
      jail: {
        mode: "auto",
        availability: { state: "unavailable", reason: "no user namespaces" },
        unjailedAllowed: true,
      },
    });
    assert.equal(shown.status, "available", JSON.stringify(shown));
    assert.ok(runs.length > 0 && runs.every((run) => run.startsWith("unjailed ")), runs.join("\n"));
    assert.equal(await world.hash(), before);
  });
});
