import assert from "node:assert/strict";
import { test } from "node:test";
import {
  contentAnswer,
  hashAnswer,
  renderWith,
  syntheticFacts,
} from "../../test-support/policy/preview/synthetic-facts.ts";
import { loadClassifier } from "../classify.ts";
import { sha256 } from "./file-outcome.ts";
import { planPreview } from "./plan.ts";
import type { PlannedPart } from "./rule.ts";
import { parseGuestConfig } from "./rules/guests.ts";
import { parseAptSimulation } from "./rules/packages.ts";

const classifier = await loadClassifier();

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

test("a file change reads as a diff and expects the file's state afterwards, at the resolved path", () => {
  const plan = planPreview(classifier, "sed -i s/b/c/ /etc/app.conf", "host");
  assert.equal(plan.status, "planned");
  if (plan.status !== "planned") return;
  const part = plan.parts[0] as PlannedPart;
  const facts = syntheticFacts({ "/etc/app.conf": { text: "a\nb\n", mode: 0o640, inode: "1:7" } });
  const shown = renderWith(part, facts, (command) =>
    command.startsWith("sha256sum")
      ? contentAnswer("a\nb\n")
      : command.startsWith("sed")
        ? { stdout: "a\nc\n" }
        : command.includes("| sha256sum")
          ? hashAnswer("a\nc\n")
          : undefined,
  );
  assert.equal(shown.status, "ok", JSON.stringify(shown));
  if (shown.status !== "ok") return;
  assert.match(
    shown.text,
    /^--- \/etc\/app\.conf \(now\)\n\+\+\+ \/etc\/app\.conf \(after\)\n@@ -1,2 \+1,2 @@\n a\n-b\n\+c$/,
  );
  assert.deepEqual(shown.expectations[0], {
    kind: "file_state",
    path: "/etc/app.conf",
    identity: "login",
    // sed -i writes a new file with the old one's mode and owner.
    after: {
      type: "file",
      sha256: sha256("a\nc\n"),
      mode: 0o640,
      uid: 1000,
      gid: 1000,
      sameInode: false,
      nlink: 1,
    },
    before: { inode: "1:7", nlink: 1 },
    otherNames: null,
  });
  assert.equal(shown.summary, "/etc/app.conf: +1 −1 lines");
});

test("the rendered parts of a plan: a directory destination, or content that does not read back, is not previewed", () => {
  const plan = planPreview(classifier, "sed -i s/b/c/ /etc/app.conf", "host");
  if (plan.status !== "planned") return assert.fail(plan.reason);
  const part = plan.parts[0] as PlannedPart;
  const directory = renderWith(part, syntheticFacts({ "/etc/app.conf": { type: "dir" } }), () => undefined);
  assert.deepEqual(directory, { status: "unavailable", reason: "`/etc/app.conf` is a directory" });
  // The content printed is not the content hashed on the target (bytes that are not text).
  const garbled = renderWith(part, syntheticFacts({ "/etc/app.conf": { text: "a\n" } }), (command) =>
    command.startsWith("sha256sum") ? { stdout: `${sha256("a\u001b[0m\n")}  f\na\n` } : undefined,
  );
  assert.equal(garbled.status, "unavailable");
});

test("guest config: the current section only (snapshots' sections after it are not the guest now)", () => {
  const config = parseGuestConfig(
    "arch: amd64\nmemory: 512\nrootfs: local-zfs:subvol-101-disk-0,size=8G\n\n[before]\nmemory: 256\n",
  );
  assert.equal(config.get("memory"), "512");
  assert.equal(config.size, 3);
});

test("an option's side effect is part of the preview: --now starts or stops, -v deletes volumes, -f kills", () => {
  const shown = (command: string, answer: (probe: string) => string) => {
    const plan = planPreview(classifier, command, "host");
    if (plan.status !== "planned") return assert.fail(`${command}: ${plan.reason}`);
    const rendered = renderWith(plan.parts[0] as PlannedPart, syntheticFacts({}), (probe) => ({
      stdout: answer(probe),
    }));
    if (rendered.status !== "ok") return assert.fail(`${command}: ${rendered.reason}`);
    return rendered.text;
  };
  const unit = (probe: string) =>
    probe.includes("is-active")
      ? "inactive\n"
      : probe.includes("is-enabled")
        ? "disabled\n"
        : "nginx.service\n";
  assert.match(shown("systemctl enable --now nginx", unit), /enable, and start it now \(--now\)/);
  assert.match(shown("systemctl disable --now nginx", unit), /disable, and stop it now \(--now\)/);
  assert.match(shown("systemctl mask --now nginx", unit), /mask, and stop it now \(--now\)/);
  assert.doesNotMatch(shown("systemctl enable nginx", unit), /--now/);
  const container = () => "/web nginx:1.25 running volume:0f1e2d volume:web-data\n";
  const removed = shown("docker rm -fv web", container);
  assert.match(removed, /-f: a running container is killed first \(1 running now\)/);
  assert.match(removed, /-v: also deletes the anonymous volumes among: 0f1e2d, web-data/);
  assert.match(shown("docker rm web", container), /without -f docker refuses to remove them/);
  assert.match(
    shown("docker rmi nginx:1.25", () => "sha256:1 nginx:1.25 100\n"),
    /untagged parent images are deleted/,
  );
  // A systemctl that cannot reach systemd says nothing about dependents: not previewed.
  const plan = planPreview(classifier, "systemctl restart nginx", "host");
  if (plan.status !== "planned") return assert.fail(plan.reason);
  const blind = renderWith(plan.parts[0] as PlannedPart, syntheticFacts({}), () => ({
    stdout: "",
    stderr: "System has not been booted with systemd",
    exitCode: 1,
  }));
  assert.equal(blind.status, "unavailable");
});
