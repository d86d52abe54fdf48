import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "../classify.ts";
import { planPreview } from "./plan.ts";
import type { ProbeResult } from "./rule.ts";
import { renderFileChange, sha256 } from "./rules/file-diff.ts";
import { parseGuestConfig } from "./rules/guests.ts";
import { parseAptSimulation } from "./rules/packages.ts";

const classifier = await loadClassifier();
const ok = (stdout: string, exitCode = 0): ProbeResult => ({ exitCode, stdout, stderr: "" });

test("apt-get -s: Inst with an old version is an upgrade, without one an install; Remv and Purg remove", () => {
  const stdout = [
    "NOTE: This is only a simulation!",
    "Inst libssl3 [3.0.11-1] (3.0.13-1 Debian:12.5/stable [amd64])",
    "Inst nginx (1.22.1-9 Debian:12.5/stable [amd64])",
    "Remv apache2 [2.4.57-2]",
    "Purg apache2 [2.4.57-2]",
    "Conf nginx (1.22.1-9 Debian:12.5/stable [amd64])",
  ].join("\n");
  assert.deepEqual(parseAptSimulation(stdout), {
    install: [{ name: "nginx", version: "1.22.1-9" }],
    upgrade: [{ name: "libssl3", version: "3.0.13-1" }],
    remove: ["apache2"],
  });
});

test("a file change reads as a diff and expects the new content's hash afterwards", () => {
  const shown = renderFileChange("/etc/app.conf", { exists: true, content: "a\nb\n" }, "a\nc\n");
  assert.equal(shown.status, "ok");
  if (shown.status !== "ok") return;
  assert.match(
    shown.text,
    /^--- \/etc\/app\.conf \(now\)\n\+\+\+ \/etc\/app\.conf \(after\)\n@@ -1,2 \+1,2 @@\n a\n-b\n\+c$/,
  );
  assert.deepEqual(shown.expectations, [
    { kind: "file_hash", path: "/etc/app.conf", sha256After: sha256("a\nc\n") },
  ]);
  const same = renderFileChange("/etc/app.conf", { exists: true, content: "a\n" }, "a\n");
  assert.ok(same.status === "ok" && same.text.includes("no change"));
});

test("the rendered parts of a plan: sed's output is the new file; a directory destination is unavailable", () => {
  const plan = planPreview(classifier, "sed -i s/b/c/ /etc/app.conf", "host");
  assert.equal(plan.status, "planned");
  if (plan.status !== "planned") return;
  const part = plan.parts[0];
  assert.ok(part);
  const shown = part.render([ok(""), ok("", 1), ok("a\nb\n"), ok("a\nc\n")]);
  assert.ok(shown.status === "ok" && shown.text.includes("-b\n+c"));
  const directory = part.render([ok(""), ok(""), ok("", 1), ok("")]);
  assert.deepEqual(directory, { status: "unavailable", reason: "`/etc/app.conf` is a directory" });
});

test("guest config: the current section only (snapshots' sections after it are not the guest now)", () => {
  const config = parseGuestConfig(
    "arch: amd64\nmemory: 512\nrootfs: local-zfs:subvol-101-disk-0,size=8G\n\n[before]\nmemory: 256\n",
  );
  assert.equal(config.get("memory"), "512");
  assert.equal(config.size, 3);
});
