import assert from "node:assert/strict";
import { test } from "node:test";
import { renderWith, syntheticFacts } from "../../test-support/policy/preview/synthetic-facts.ts";
import { loadClassifier } from "../classify.ts";
import { redact } from "../redact.ts";
import { sha256 } from "./file-outcome.ts";
import { renderOutcomes } from "./file-render.ts";
import { plainFileFacts } from "./part-facts.ts";
import { planPreview } from "./plan.ts";
import type { PlannedPart } from "./rule.ts";

/**
 * An outside review's attacks on plan previews (#15): lines a preview would show dishonestly or
 * that would run something the read-only proof does not allow. Each is planned by the real
 * classifier; the controls next to each class show the rule still previews the honest form.
 */

const classifier = await loadClassifier();
const plan = (command: string) => planPreview(classifier, command, "linux");
const probesOf = (command: string) => {
  const p = plan(command);
  return p.status === "planned" ? p.parts.flatMap(probesAsPlainFiles) : null;
};

/** A part's probes as they would be for plain files (those with paths choose them once resolved). */
function probesAsPlainFiles(part: PlannedPart): string[] {
  const probes =
    typeof part.probes === "function"
      ? part.probes(plainFileFacts(part.paths.map((q) => q.word)))
      : part.probes;
  return Array.isArray(probes) ? probes.map((probe) => probe.command) : [];
}

function declines(commands: readonly string[], reasonPart: string) {
  for (const command of commands) {
    const p = plan(command);
    assert.equal(p.status, "unavailable", `${command} was planned: ${JSON.stringify(probesOf(command))}`);
    if (p.status === "unavailable") assert.match(p.reason, new RegExp(reasonPart), command);
  }
}

function plans(commands: readonly string[]) {
  for (const command of commands) assert.notEqual(probesOf(command), null, `${command} was not planned`);
}

test("a command that reads the file its redirection empties is not previewed as if it read it whole", () => {
  // The shell truncates /etc/app.conf before sort reads it: the file ends up empty, never sorted.
  declines(
    [
      "sort /etc/app.conf > /etc/app.conf",
      "sed 's/a/b/' /etc/app.conf > /etc/app.conf",
      "grep -v '^#' ./app.conf > app.conf",
      "cat < /etc/f > /etc/f",
      "cat /etc/f >> /etc//f",
      "cat /etc/app.conf | tee /etc/app.conf",
      "tee /etc/f < /etc/f",
      "sort --output=x /etc/hosts | tee -a /etc/hosts",
    ],
    "empties or opens",
  );
  plans(["sort /etc/app.conf.new > /etc/app.conf", "cat /etc/a | tee /etc/b"]);
});

test("several redirections of the output, or a stream sent to it before the write, are order-dependent", () => {
  // `echo a 1>&2 > f` writes `a` into f; the producer `echo a 1>&2` alone prints nothing.
  declines(
    [
      "echo a 1>&2 > /etc/f",
      "echo a >&2 > /etc/f",
      "echo a > /etc/f > /dev/null",
      "echo a > /etc/f &>/dev/null",
      "echo a >/dev/null >> /etc/f",
    ],
    "more than once",
  );
  // `2>&1 > f`: stderr goes where stdout went before, not into f.
  declines(["ls /nope 2>&1 > /etc/f"], "before the output is redirected");
  plans(["echo a > /etc/f 2>&1", "echo a 2>/dev/null > /etc/f"]);
});

test("a path is judged as the target resolves it, not as written", () => {
  declines(
    ["echo hi > //proc/sys/kernel/x", "echo hi > /./sys/x", "sed -i s/a/b/ //dev/sda"],
    "not a regular file",
  );
  // Scratch space and `..` are resolved on the target (issue #37): where the jail's view is its own
  // (a private /tmp), the part is not previewed then; `..` is followed through links as the kernel does.
  plans([
    "echo hi > /etc/tmpfiles.d/x.conf",
    "echo hi > /srv/tmp/x",
    "echo hi > /etc/../tmp/x",
    "echo hi > /tmp/x",
  ]);
});

test("two spellings of one file in one line are one file", () => {
  declines(
    [
      "sed -i s/a/b/ /etc/f /etc//f",
      "sed -i s/a/b/ f ./f",
      "sed -i s/a/b/ /etc/f; sed -i s/c/d/ /etc/./f",
      "echo a > app.conf; echo b > /etc/app.conf",
    ],
    "more than one command changes",
  );
  declines(["cp /etc/f /etc//f", "mv ./f f"], "onto itself");
  plans(["sed -i s/a/b/ /etc/f /etc/g", "install -m 0644 ./exports /etc/exports"]);
});

test("a program named by a path outside the system directories is not previewed as the system tool", () => {
  // `./sed` is whatever sits there; the probe would run the system sed and show its effect.
  for (const command of ["./sed -i s/a/b/ /etc/f", "/opt/x/sed -i s/a/b/ /etc/f", "/tmp/tee /etc/f <<< x"]) {
    assert.equal(probesOf(command), null, command);
  }
  plans(["/bin/sed -i s/a/b/ /etc/f", "/usr/bin/tee /etc/f <<< x"]);
});

test("sed commands that run programs or write files never reach a probe", () => {
  for (const command of [
    "sed -i 's/a/b/w /etc/passwd' /etc/f",
    "sed -i 's/x/touch \\/tmp\\/canary/e' /etc/f",
    "sed -i '1e touch /tmp/canary' /etc/f",
    "sed -i 'R /etc/shadow' /etc/f",
    "sed -i -f /tmp/script.sed /etc/f",
    "sed -i --file=/tmp/script.sed /etc/f",
    "sed -i --fi=/tmp/s /etc/f",
    "sed -nf /tmp/s -i /etc/f",
    "sed -i s/a/b/ $(touch /tmp/canary)",
    'sed -i "s/a/$(touch /tmp/canary)/" /etc/f',
  ]) {
    const probes = probesOf(command);
    // Planned only as sed --sandbox, which refuses e, r, R, w and W itself.
    if (probes !== null) {
      const sed = probes.find((probe) => probe.startsWith("sed"));
      assert.ok(sed?.startsWith("sed --sandbox "), `${command}: ${JSON.stringify(probes)}`);
    }
  }
});

test("a secret cut off from what names it by the diff's few context lines is still redacted", () => {
  const body = Array.from(
    { length: 20 },
    (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8c${String(i).padStart(2, "0")}`,
  );
  const key = (lines: string[]) =>
    ["-----BEGIN PRIVATE KEY-----", ...lines, "-----END PRIVATE KEY-----", ""].join("\n");
  const changed = [...body];
  changed[10] = `XX${(body[10] as string).slice(2)}`;
  const shown = (before: string, after: string) =>
    renderOutcomes(
      [
        {
          path: "/etc/ssl/private/k.pem",
          written: null,
          before: { type: "file", mode: 0o600, uid: 0, gid: 0, nlink: 1, inode: "1:2", size: before.length },
          beforeSha256: sha256(before),
          after: {
            type: "file",
            sha256: sha256(after),
            mode: 0o600,
            uid: 0,
            gid: 0,
            sameInode: false,
            nlink: 1,
          },
          otherNames: null,
          notes: [],
          contentBefore: before,
          contentAfter: after,
        },
      ],
      "sudo",
      [],
    );
  const rendered = shown(key(body), key(changed));
  for (const line of [...body, ...changed].slice(5, 15))
    assert.ok(!rendered.text.includes(line.slice(0, 40)), line);
  // Still a change (the fingerprint hashes the raw content), said without the values.
  assert.notEqual(rendered.text.includes("no change"), true, rendered.text);
  const unchanged = shown(key(body), key(body));
  assert.ok(unchanged.effect !== rendered.effect);
});

test("the fingerprint covers everything the card shows: sizes and counts of what is deleted", () => {
  const facts = syntheticFacts({ "/srv/data": { type: "dir", inode: "1:50" } });
  const effectOf = (command: string, outputs: { stdout: string; stderr?: string }[]) => {
    const p = plan(command);
    assert.equal(p.status, "planned", command);
    if (p.status !== "planned") return "";
    let at = 0;
    const rendered = renderWith(p.parts[0] as PlannedPart, facts, () => outputs[at++] ?? { stdout: "" });
    assert.equal(rendered.status, "ok", JSON.stringify(rendered));
    return rendered.status === "ok" ? rendered.effect : "";
  };
  // Shown: "deletes 3 names, 4.0 KiB"; at approval the directory holds 40 GiB in 90,000.
  const tree = (names: number, bytes: number) => [{ stdout: `${names - 1} f\n 1 d\n${bytes}\t./data\n` }];
  assert.notEqual(
    effectOf("rm -rf /srv/data", tree(3, 4096)),
    effectOf("rm -rf /srv/data", tree(90000, 42949672960)),
  );
  assert.notEqual(
    effectOf("zfs destroy tank/data@old", [{ stdout: "tank/data@old\t2097152\t-\n" }]),
    effectOf("zfs destroy tank/data@old", [{ stdout: "tank/data@old\t42949672960\t-\n" }]),
  );
  // Equal output, equal fingerprint (no time or randomness in it).
  assert.equal(effectOf("rm -rf /srv/data", tree(3, 4096)), effectOf("rm -rf /srv/data", tree(3, 4096)));
});

test("compose options that recreate, remove or build what the per-service comparison shows are not previewed", () => {
  // The comparison says "db: unchanged"; --force-recreate recreates it, -V drops its anonymous
  // volumes, --remove-orphans removes containers the file no longer names, --build rebuilds.
  declines(
    [
      "docker compose up -d --force-recreate",
      "docker compose up -d -V",
      "docker compose up -d --renew-anon-volumes",
      "docker compose up --remove-orphans -d",
      "docker compose up -d --build web",
      "docker compose up -d --always-recreate-deps web",
      "docker compose up -d --scale web=3",
      "docker compose up -d --no-deps web",
      "docker compose up -d --pull always",
      "docker-compose pull --include-deps web",
    ],
    "is not previewed",
  );
  plans([
    "docker compose up -d",
    "docker compose up -d --wait --wait-timeout 60 web",
    "docker compose pull -q web",
  ]);
});

test("a guest's secret settings are never shown, neither the value now nor the one requested", () => {
  for (const [command, config] of [
    ["qm set 100 --cipassword hunter2pass", "name: vm\ncipassword: oldS3cretValue\n"],
    ["pct set 101 --password N3wPassw0rdX", "hostname: ct\n"],
  ] as const) {
    const p = plan(command);
    assert.equal(p.status, "planned", command);
    if (p.status !== "planned") continue;
    const rendered = renderWith(p.parts[0] as PlannedPart, syntheticFacts({}), () => ({ stdout: config }));
    assert.equal(rendered.status, "ok");
    if (rendered.status !== "ok") continue;
    // What leaves: the part's text and the command heading it, both redacted (jobs/preview/create.ts).
    const shown = redact(`$ ${command}\n${rendered.text}`);
    for (const secret of ["hunter2pass", "oldS3cretValue", "N3wPassw0rdX"])
      assert.ok(!shown.includes(secret), shown);
    // Still a change the fingerprint sees.
    assert.ok(rendered.effect.length > 0);
  }
});

test("a unit pattern systemctl expands itself is not previewed as one unit", () => {
  declines(
    ["systemctl stop 'docker*'", 'systemctl restart "ssh?.service"', "service 'nginx*' restart"],
    "pattern",
  );
  plans(["systemctl stop docker.service containerd"]);
});
