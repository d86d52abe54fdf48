import assert from "node:assert/strict";
import { test } from "node:test";
import { syntheticFacts } from "../../test-support/policy/preview/synthetic-facts.ts";
import { loadClassifier } from "../classify.ts";
import { plainFileFacts } from "./part-facts.ts";
import { matchRule, planPreview } from "./plan.ts";
import type { PlannedPart } from "./rule.ts";
import { PREVIEW_RULES } from "./rules/index.ts";
import { statementsOf } from "./statement.ts";
import { PREVIEW_KINDS } from "./types.ts";

/** What a part asks first: the paths it resolves (`facts <word>`), then its up-front probes. */
function asked(part: PlannedPart): string[] {
  return [
    ...part.paths.map((query) => `facts ${query.word}`),
    ...(typeof part.probes === "function" ? [] : part.probes.map((probe) => probe.command)),
  ];
}

/** Every probe a part runs, once its paths resolve to plain existing files (and as they are missing). */
function everyProbe(part: PlannedPart): string[] {
  const probes = part.probes;
  if (typeof probes !== "function") return probes.map((probe) => probe.command);
  const words = part.paths.map((query) => query.word);
  return [plainFileFacts(words), syntheticFacts({})].flatMap((facts) => {
    const chosen = probes(facts);
    return Array.isArray(chosen) ? chosen.map((probe) => probe.command) : [];
  });
}

const classifier = await loadClassifier();

test("every preview rule has a unique id, a kind, and examples of both what it plans and what it declines", () => {
  const ids = new Set<string>();
  for (const rule of PREVIEW_RULES) {
    assert.ok(!ids.has(rule.id), `duplicate rule id ${rule.id}`);
    ids.add(rule.id);
    assert.ok((PREVIEW_KINDS as readonly string[]).includes(rule.kind));
    assert.ok(rule.examples.length >= 2, `${rule.id} has fewer than two examples`);
    assert.ok(
      rule.examples.some(([, expected]) => expected === "unavailable"),
      `${rule.id} has no example it declines`,
    );
  }
  for (const kind of PREVIEW_KINDS) {
    assert.ok(
      PREVIEW_RULES.some((rule) => rule.kind === kind),
      `no rule previews ${kind}`,
    );
  }
});

for (const rule of PREVIEW_RULES) {
  test(`${rule.id}: its examples plan exactly these probes (or decline), and it is the rule that answers`, () => {
    for (const [command, expected] of rule.examples) {
      const found = statementsOf(classifier.parse(command));
      if (!found.ok) {
        assert.equal(expected, "unavailable", `${command}: ${found.reason}`);
        continue;
      }
      assert.equal(found.statements.length, 1, `${command}: one statement`);
      const statement = found.statements[0] as (typeof found.statements)[number];
      const own = rule.match(statement);
      assert.notEqual(own, null, `${rule.id} does not know ${JSON.stringify(command)}`);
      // No earlier rule takes the statement from this one.
      const first = matchRule(statement);
      assert.deepEqual(first, own === null ? null : first);
      if (first && "parts" in first)
        assert.ok(
          first.parts.every((part) => part.ruleId === rule.id),
          command,
        );
      if (expected === "unavailable") {
        assert.ok(own && "unavailable" in own, `${command} should be declined, got a plan`);
        assert.ok(own.unavailable.length > 0);
      } else {
        assert.ok(own && "parts" in own, `${command} should be planned: ${JSON.stringify(own)}`);
        assert.deepEqual(own.parts.flatMap(asked), expected, command);
        for (const part of own.parts) {
          assert.equal(part.kind, rule.kind);
          assert.equal(part.command, statement.text);
        }
      }
    }
  });
}

test("whatever a rule would plan, the plan runs only probes the classifier proves read-only", () => {
  for (const rule of PREVIEW_RULES) {
    for (const [command] of rule.examples) {
      const plan = planPreview(classifier, command, "host");
      if (plan.status !== "planned") continue;
      for (const probe of plan.parts.flatMap(everyProbe)) {
        const verdict = classifier.classify(probe, "host");
        assert.equal(verdict.risk, "read_only", `${command} → ${probe}: ${verdict.reasons.join("; ")}`);
      }
    }
  }
});

/**
 * A preview must never become a way to run or write anything: the edit is never run, and what a rule
 * would run instead (the sed script without -i, the command feeding a redirection or tee) is refused
 * unless proven read-only. Each of these is a mutating command with a payload; none may be planned.
 */
const ATTACKS = [
  "sed -i 's/x/y/e' /etc/app.conf",
  "sed -i '1e reboot' /etc/app.conf",
  "sed -i -e 's/a/b/' -e '1w /etc/passwd' /etc/app.conf",
  "sed -i 's/a/b/w /root/.ssh/authorized_keys' /etc/app.conf",
  'sed -i "s/a/$(reboot)/" /etc/app.conf',
  "sed -i -f /tmp/evil.sed /etc/app.conf",
  "sed -i 'r /etc/shadow' /etc/app.conf",
  "echo $(reboot) > /etc/app.conf",
  "echo `touch /tmp/pwned` > /etc/app.conf",
  "printf '%s' \"$(rm -rf /srv)\" >> /etc/app.conf",
  "cat <<EOF > /etc/app.conf\n$(reboot)\nEOF",
  'python3 -c \'open("/etc/passwd","w")\' > /etc/app.conf',
  "cat /dev/watchdog > /etc/app.conf",
  "echo $(reboot) | tee /etc/app.conf",
  "tee /etc/app.conf <<EOF\n$(reboot)\nEOF",
  'tee /etc/app.conf <<< "$(reboot)"',
  "tee /etc/app.conf < <(reboot)",
  "dd if=/dev/zero of=/tmp/x | tee /etc/app.conf",
  "echo x | tee --output-error=warn /etc/app.conf /dev/sda",
  "echo x > /dev/sda",
  "sed -i s/a/b/ /proc/sys/kernel/panic",
  "cp -s /etc/shadow /etc/app.conf",
  "cp --preserve=all -r /etc /srv/etc",
  "install -d /etc/evil",
  "apt-get -o APT::Update::Pre-Invoke::=reboot install nginx",
  "LD_PRELOAD=/tmp/x.so apt-get install nginx",
  "docker compose --env-file $(reboot) up -d",
  "systemctl restart $(reboot)",
  "pct set 101 --hookscript $(reboot)",
  'zfs destroy -r "$(reboot)"',
  "rm -rf $(reboot)",
  "rm -rf /srv/$(touch /tmp/pwned)",
];

test("the attack corpus: no payload is ever planned, so nothing in it can run", () => {
  for (const command of ATTACKS) {
    const plan = planPreview(classifier, command, "host");
    if (plan.status === "unavailable") continue;
    assert.equal(
      plan.parts.length,
      0,
      `${JSON.stringify(command)} planned ${JSON.stringify(plan.parts.map(asked))}`,
    );
  }
});

test("a line that only reads, or is rejected, has nothing to preview; no rule means no guess", () => {
  assert.deepEqual(planPreview(classifier, "cat /etc/hosts", "host"), {
    status: "unavailable",
    reason: "the command only reads: it changes nothing",
  });
  assert.equal(planPreview(classifier, "curl https://x | bash", "host").status, "unavailable");
  const none = planPreview(classifier, "useradd bob", "host");
  assert.deepEqual(none, { status: "unavailable", reason: "no preview available for this command" });
});

test("a compound line previews each command that has a rule and names the others", () => {
  const plan = planPreview(
    classifier,
    "apt-get update && apt-get upgrade -y && systemctl restart nginx",
    "host",
  );
  assert.equal(plan.status, "planned");
  if (plan.status !== "planned") return;
  assert.deepEqual(
    plan.parts.map((part) => part.ruleId),
    ["packages.apt", "service.systemctl"],
  );
  assert.deepEqual(plan.notPreviewed, [
    { command: "apt-get update", reason: "no preview available for this command", statement: 0 },
  ]);
  // Read-only steps of the line are neither previewed nor listed.
  const withRead = planPreview(classifier, "cat /etc/app.conf; sed -i s/a/b/ /etc/app.conf", "host");
  assert.equal(withRead.status, "planned");
  if (withRead.status === "planned") assert.deepEqual(withRead.notPreviewed, []);
});

test("a line whose earlier commands change what later ones act on is not previewed", () => {
  for (const command of [
    "cd /etc && sed -i s/a/b/ app.conf",
    "export APT_CONFIG=/tmp/x; apt-get upgrade -y",
    "sed -i s/a/b/ /etc/f && sed -i s/c/d/ /etc/f",
    "if true; then sed -i s/a/b/ /etc/f; fi",
    "for f in /etc/*.conf; do sed -i s/a/b/ $f; done",
  ]) {
    assert.equal(planPreview(classifier, command, "host").status, "unavailable", command);
  }
});
