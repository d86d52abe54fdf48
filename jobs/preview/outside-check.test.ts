import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { OUTSIDE_CASES } from "../../test-support/jobs/preview/outside-check/cases.ts";
import {
  type CaseResult,
  type OutsideLab,
  runCase,
  startOutsideLab,
} from "../../test-support/jobs/preview/outside-check/runner.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";
import { sudoLabUnavailable } from "../../test-support/sshd/sudo-lab-user.ts";

/**
 * The outside differential check (#37), written without the project's own cases: each command is
 * previewed on a scratch tree over a loopback sshd with the jail required, run for real, and the
 * tree compared entry by entry (path, type, mode, owner, links, content hash). Every preview must
 * name every path that changed with the hashes, modes, owners and counts that happened, or say
 * honestly that (part of) it is not previewed; a fully previewed line's post-run check must match.
 * Bounded: the cases that found something, then every class's first few, at most SAMPLE in all
 * (`node test-support/jobs/preview/outside-check/main.ts` runs them all).
 */
const SAMPLE = 24;
const FOUND = ["sed-i-two-files", "sed-i-s-two", "long-card-many", "long-card-rm", "tee-two-files"];
const sample = (() => {
  const picked = OUTSIDE_CASES.filter((c) => FOUND.includes(c.id));
  // then round robin over the classes, in the order the cases list them
  const byClass = new Map<string, typeof OUTSIDE_CASES>();
  for (const c of OUTSIDE_CASES)
    if (!picked.includes(c)) byClass.set(c.cls, [...(byClass.get(c.cls) ?? []), c]);
  while (picked.length < SAMPLE && [...byClass.values()].some((list) => list.length > 0)) {
    for (const list of byClass.values()) {
      const next = list.shift();
      if (next && picked.length < SAMPLE) picked.push(next);
    }
  }
  return picked;
})();

const unavailable = (await sshLabUnavailable()) ?? (await sudoLabUnavailable());

describe("plan previews, outside differential check", { skip: unavailable ?? false }, () => {
  let lab: OutsideLab;
  const results = new Map<string, CaseResult>();
  before(async () => {
    lab = await startOutsideLab();
    const queue = [...sample];
    await Promise.all(
      [0, 1].map(async () => {
        for (let c = queue.shift(); c; c = queue.shift()) results.set(c.id, await runCase(lab, c));
      }),
    );
  });
  after(() => lab?.stop());

  test("the sample covers every class", () => {
    assert.deepEqual(new Set(sample.map((c) => c.cls)), new Set(OUTSIDE_CASES.map((c) => c.cls)));
  });

  test("the post-run check notices a change reverted after the run, and a file no part named", async () => {
    const dir = "/srv/oc/post-run-revert";
    await lab.exec(
      `sudo -n rm -rf ${dir} && sudo -n install -d -o "$(id -u)" ${dir} && echo a > ${dir}/f && echo a > ${dir}/g`,
    );
    const preview = await lab.previewer.compute({ ...lab.where, command: `sed -i s/a/b/ ${dir}/f ${dir}/g` });
    assert.equal(preview.status, "available");
    if (preview.status !== "available") return;
    await lab.exec(`sed -i s/a/b/ ${dir}/f ${dir}/g`);
    const check = async () =>
      Promise.all(preview.expectations.map((e) => lab.previewer.verify(e, lab.where)));
    assert.deepEqual(
      (await check()).map((c) => c.status),
      preview.expectations.map(() => "matches"),
    );
    await lab.exec(`echo a > ${dir}/f && echo x > ${dir}/stray`);
    const after = await check();
    assert.ok(
      after.some((c) => c.status === "differs" && c.detail.includes(`${dir}/f`)),
      JSON.stringify(after),
    );
    assert.ok(
      after.some((c) => c.status === "differs" && c.detail.includes(`${dir}/stray`)),
      JSON.stringify(after),
    );
    await lab.exec(`sudo -n rm -rf ${dir}`);
  });

  for (const c of sample) {
    test(`${c.cls}: ${c.id}`, () => {
      const r = results.get(c.id);
      assert.ok(r, "the case ran");
      assert.ok(
        r.verdict === "correct" || r.verdict === "honest",
        `${r.verdict}: ${r.why}\n$ ${r.command}\nchanged: ${r.changes.join("; ")}\npreview: ${r.previewText}`,
      );
    });
  }
});
