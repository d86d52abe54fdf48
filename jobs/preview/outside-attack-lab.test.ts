import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { access, readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import type { JailFacts } from "../../policy/jail.ts";
import { createScratchTree } from "../../test-support/jail/scratch-tree.ts";
import { ensureLabUser, type LabUser } from "../../test-support/sshd/lab-prerequisites.ts";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { InMemoryHostKeyStore } from "../ssh/host-key-store.ts";
import { SshPool } from "../ssh/ssh-pool.ts";
import type { Target } from "../ssh/target.ts";
import { TransportRouter } from "../ssh/transport-router.ts";
import { createPlanPreviewer } from "./create.ts";
import type { PlanPreviewer, PreviewTarget } from "./previewer.ts";

/**
 * An outside review's differential oracle for file previews (#15), on a loopback sshd: each line is
 * previewed on a fresh scratch tree (the tree must be byte for byte the same afterwards and the
 * canary a payload would create absent), then run for real; a preview that was shown must have
 * predicted the file the run left (its sha256). A preview that declines is honest by construction;
 * one that shows a change that does not happen is the defect.
 */

const unavailable = await sshLabUnavailable();
const classifier = await loadClassifier();

const LINES: readonly string[] = [
  // Reads the file its redirection empties first: the file ends up empty, not sorted or edited.
  "sort $S/home/notes.txt > $S/home/notes.txt",
  "sed 's/8080/9090/' $S/etc/app.conf > $S/etc/app.conf",
  "tee $S/etc/hosts < $S/etc/hosts",
  // Order of redirections decides where the output goes.
  "echo a 1>&2 > $S/etc/app.conf",
  "echo a > $S/etc/app.conf > /dev/null",
  "ls $S/nope 2>&1 > $S/etc/app.conf",
  // One file, two spellings: the edit applies twice.
  "sed -i 's/$/!/' $S/etc/app.conf $S/etc//app.conf",
  // Payloads: nothing may run while previewing.
  "sed -i 's/listen/touch $S\\/canary/e' $S/etc/app.conf",
  "echo $(touch $S/canary) > $S/etc/app.conf",
  "sed -i -e 'w $S/canary' $S/etc/app.conf",
  // Controls: previewed, and the preview must hold.
  "sed -i 's/8080/9090/' $S/etc/app.conf",
  "echo 'workers = 8' >> $S/etc/app.conf",
  "printf 'a\\nb\\n' | tee $S/etc/new.conf >/dev/null",
  "cp $S/etc/hosts $S/etc/app.conf",
  "ls $S/etc > $S/home/list.txt 2>&1",
  "sort $S/home/notes.txt > $S/home/sorted.txt",
];

const CONTROLS = LINES.slice(LINES.indexOf("sed -i 's/8080/9090/' $S/etc/app.conf"));

describe("outside review: a shown file preview predicts the file the command leaves", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  let where: PreviewTarget;
  let previewer: PlanPreviewer;
  let user: LabUser;

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "attack" }], baseDir: "/var/lib" });
    pool = new SshPool({ auth: labAuth(lab.host("attack")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    user = await ensureLabUser();
    const target: Target = labSshTarget(lab.host("attack"));
    const jail: JailFacts = { mode: "auto", availability: { state: "unknown" } };
    where = { target, targetType: "host", jail };
    previewer = createPlanPreviewer({ classifier, runner: router, probeTimeoutMs: 30_000 });
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
  });

  for (const line of LINES) {
    test(line, async () => {
      const tree = await createScratchTree(user);
      try {
        const command = line.replaceAll("$S", tree.root);
        const canary = `${tree.root}/canary`;
        const before = await tree.snapshot();
        const preview = await previewer.compute({ ...where, command });
        assert.deepEqual(await tree.snapshot(), before, "previewing changed the tree");
        await assert.rejects(access(canary), "previewing ran a payload");
        if (CONTROLS.includes(line)) assert.equal(preview.status, "available", JSON.stringify(preview));
        if (preview.status !== "available") return;
        if (line.includes("canary")) assert.fail(`a payload was previewed: ${preview.text}`);
        await router.exec(where.target, command);
        for (const expectation of preview.expectations) {
          if (expectation.kind !== "file_hash") continue;
          const now = await readFile(expectation.path, "utf8").then(
            (text) => createHash("sha256").update(text).digest("hex"),
            () => null,
          );
          assert.equal(
            now,
            expectation.sha256After,
            `${expectation.path} after the run is not what the preview showed:\n${preview.text}`,
          );
        }
      } finally {
        await tree.remove();
      }
    });
  }
});
