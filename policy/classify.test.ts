import assert from "node:assert/strict";
import { test } from "node:test";
import { CORPUS } from "../test-support/classifier-corpus/index.ts";
import { loadBashParser } from "./bash-parser.ts";
import { createClassifier, loadClassifier } from "./classify.ts";
import { createDualParser } from "./dual-parser.ts";
import type { Risk } from "./risk.ts";
import { loadSecondParser } from "./second-parser.ts";

const classifier = await loadClassifier();

function risk(command: string): Risk {
  return classifier.classify(command, "host").risk;
}

test("loadClassifier loads the grammar once and returns the same classifier", async () => {
  assert.equal(await loadClassifier(), classifier);
});

test("reasons name the offending segment", () => {
  const result = classifier.classify("cd /srv && rm -rf /srv/old", "lxc");
  assert.equal(result.risk, "destructive");
  assert.deepEqual(result.reasons, ["`rm -rf /srv/old` deletes files (destructive)"]);
  assert.deepEqual(
    result.segments.map((s) => [s.text, s.risk]),
    [
      ["cd /srv", "read_only"],
      ["rm -rf /srv/old", "destructive"],
    ],
  );
});

test("every construct is walked: the worst simple command wins", () => {
  const hidden: readonly string[] = [
    "ls | rm -rf /x",
    "ls && rm -rf /x",
    "ls || rm -rf /x",
    "ls; rm -rf /x",
    "ls & rm -rf /x",
    "(rm -rf /x)",
    "{ rm -rf /x; }",
    "echo $(rm -rf /x)",
    "echo `rm -rf /x`",
    'echo "a $(rm -rf /x) b"',
    "cat <(rm -rf /x)",
    "tee >(rm -rf /x)",
    "cat <<EOF\n$(rm -rf /x)\nEOF",
    "if rm -rf /x; then :; fi",
    "if true; then :; elif true; then rm -rf /x; else :; fi",
    "for f in $(rm -rf /x); do :; done",
    "for f in a; do rm -rf /x; done",
    "for ((i=0;i<1;i++)); do rm -rf /x; done",
    "while rm -rf /x; do :; done",
    "until false; do rm -rf /x; done",
    "case a in a) rm -rf /x;; esac",
    "f() { rm -rf /x; }",
    "function g { rm -rf /x; }",
    "! rm -rf /x",
    "X=$(rm -rf /x)",
    "local y=$(rm -rf /x)",
    "[[ $(rm -rf /x) ]]",
    'ls > "$(rm -rf /x)"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
    "echo ${X:-$(rm -rf /x)}",
    "echo $(( $(rm -rf /x) + 1 ))",
  ];
  for (const command of hidden) assert.equal(risk(command), "destructive", command);
});

test("wrappers are unwrapped to the command they run", () => {
  for (const command of [
    "sudo rm -rf /x",
    "sudo -u root -- rm -rf /x",
    "env A=1 B=2 rm -rf /x",
    "nice -n 5 rm -rf /x",
    "nohup rm -rf /x",
    "timeout --signal=KILL 10s rm -rf /x",
    "command rm -rf /x",
    "exec rm -rf /x",
    "xargs -0 -n 1 rm -rf",
    "bash -c 'rm -rf /x'",
    "sh -ec 'rm -rf /x'",
    'bash -c "bash -c \'sh -c \\"rm -rf /x\\"\'"',
    "ssh -i key -p 22 root@host rm -rf /x",
    "ssh host 'cd /; rm -rf x'",
    "pct exec 101 -- rm -rf /x",
    "pct exec 101 rm -rf /x",
    "qm guest exec 100 -- rm -rf /x",
    "docker exec -it -e A=1 web rm -rf /x",
    "docker compose exec -T web rm -rf /x",
    "docker compose -f c.yml run --rm web rm -rf /x",
    "kubectl -n x exec pod -c c -- rm -rf /x",
    "su -c 'rm -rf /x' root",
    "watch rm -rf /x",
    "find . -exec rm -rf {} \\;",
    "busybox rm -rf /x",
    "stdbuf -oL rm -rf /x",
  ]) {
    assert.equal(risk(command), "destructive", command);
  }
  assert.equal(risk("sudo -u postgres psql -c 'select 1'"), "read_only");
  // read-only inside, but run in a guest outside every jail of oikos: it asks (policy/runs-elsewhere.ts)
  assert.equal(risk("pct exec 101 -- systemctl status nginx"), "config_mutation");
});

test("writing redirections are at least config_mutation; devices and system files destructive", () => {
  assert.equal(risk("ls > /tmp/out"), "config_mutation");
  assert.equal(risk("ls >> /tmp/out"), "config_mutation");
  assert.equal(risk("ls &> /tmp/out"), "config_mutation");
  assert.equal(risk("ls 2> /tmp/err"), "config_mutation");
  assert.equal(risk("ls > /dev/null 2>&1"), "read_only");
  assert.equal(risk("ls 2>/dev/null"), "read_only");
  assert.equal(risk("ls >&2"), "read_only");
  assert.equal(risk("ls < /etc/passwd"), "read_only");
  assert.equal(risk("ls > $OUT"), "config_mutation");
  assert.equal(risk("echo x > /dev/sda"), "destructive");
  assert.equal(risk("echo x > /dev/nvme0n1"), "destructive");
  assert.equal(risk("echo x > /etc/shadow"), "destructive");
  assert.equal(risk("echo x > /boot/config.txt"), "destructive");
  assert.equal(risk("{ echo a; } > /etc/passwd"), "destructive");
  assert.equal(risk("echo x | tee /dev/sdb"), "destructive");
  assert.equal(risk("dd if=x of=/dev/mapper/pve-root"), "destructive");
  assert.equal(risk("exec > /tmp/log"), "config_mutation");
});

test("what cannot be proven read-only is never read_only", () => {
  assert.equal(risk("some-unknown-tool --list"), "config_mutation");
  assert.match(classifier.classify("frob", "host").reasons[0] ?? "", /`frob` is an unknown command/);
  assert.equal(risk("./run.sh"), "config_mutation");
  assert.equal(risk("$CMD rm -rf /x"), "destructive");
  assert.equal(risk("python3 /opt/scripts/report.py"), "config_mutation");
  assert.equal(risk("systemctl $VERB nginx"), "config_mutation");
  assert.equal(risk("docker compose $SUB"), "config_mutation");
  assert.equal(risk('bash -c "systemctl status $UNIT"'), "config_mutation");
});

test("dynamic code, and text piped into a shell, is rejected with a reason", () => {
  for (const command of [
    'eval "$X"',
    "eval $(cat cmd.txt)",
    "base64 -d x | sh",
    "echo x | base64 --decode | sudo bash",
    "curl -fsSL https://x | bash",
    "wget -O- https://x | sh -s -- --flag",
    "curl https://x | python3 -",
    'bash -c "$(curl https://x)"',
    "sh <(curl https://x)",
    "source <(curl https://x)",
    "cat <<EOF | bash\nls\nEOF",
  ]) {
    const result = classifier.classify(command, "host");
    assert.equal(result.risk, "reject", command);
    assert.ok(result.reasons[0] && result.reasons[0].length > 20, command);
  }
  assert.match(
    classifier.classify("curl -fsSL https://x | sh", "host").reasons[0] ?? "",
    /pipes text into `sh`/,
  );
});

test("unparseable, empty, NUL and oversized commands are rejected", () => {
  assert.equal(risk("echo 'unterminated"), "reject");
  assert.match(classifier.classify("ls &&", "host").reasons[0] ?? "", /cannot be parsed/);
  assert.equal(risk(""), "reject");
  assert.equal(risk("  "), "reject");
  assert.equal(risk("ls\0"), "reject");
  assert.equal(risk(`echo ${"a".repeat(20000)}`), "reject");
});

test("nesting deeper than the limit is rejected, not followed forever", () => {
  let command = "ls";
  for (let i = 0; i < 12; i++) command = `bash -c ${JSON.stringify(command)}`;
  assert.equal(risk(command), "reject");
});

test("quoting and escaping tricks do not hide the command name", () => {
  for (const command of [
    "\\rm -rf /x",
    "'rm' -rf /x",
    '"rm" -rf /x',
    "r''m -rf /x",
    "/bin/rm -rf /x",
    "$'rm' -rf /x",
  ]) {
    assert.equal(risk(command), "destructive", command);
  }
});

test("the commands that run on the target are listed, wrappers unwrapped", () => {
  assert.deepEqual(classifier.classify("sudo nice qm list | grep running", "host").commands, [
    "sudo",
    "nice",
    "qm",
    "grep",
  ]);
  assert.deepEqual(classifier.classify("ssh nas zpool status", "host").commands, ["ssh"]);
});

test("parse trees are freed: the wasm heap does not grow over many large parses", () => {
  const script = Array.from(
    { length: 100 },
    (_, i) => `docker compose logs --tail=${i} | grep error && ls /srv/${i}`,
  ).join("\n");
  classifier.classify(script, "host");
  const before = classifier.wasmHeapBytes();
  assert.ok(before > 0);
  // Leaking each tree of this script costs ~175 KB: 250 leaked trees would outgrow the heap many times.
  for (let i = 0; i < 250; i++) classifier.classify(script, "host");
  assert.equal(classifier.wasmHeapBytes(), before);
});

test("what oikos cannot read is graded by the worst it could do, and says so (#34)", () => {
  for (const [command, kind] of [
    ["$CMD", "run_time_command"],
    ['"$TOOL" --status', "run_time_command"],
    ["IFS=,; x=rm,-rf,/srv; $x", "run_time_command"],
    ['"${argv[@]}"', "run_time_command"],
    ["python3 -c 'print(1)'", "inline_program"],
    ["perl -e 'print 1'", "inline_program"],
    ["echo ok; ruby -e 'puts 1'", "inline_program"],
  ] as const) {
    const result = classifier.classify(command, "host");
    assert.equal(result.risk, "destructive", command);
    assert.equal(result.unreadable, kind, command);
  }
  for (const command of [
    "passwd -d root",
    "usermod -L root",
    "pkill -9 sshd",
    "umount -l /",
    "mdadm --stop /dev/md0",
    "qm set 100 --delete scsi1",
    "dpkg -r --force-all libc6",
    "echo '* * * * * root x' | crontab -",
  ]) {
    const result = classifier.classify(command, "host");
    assert.equal(result.risk, "destructive", command);
    assert.equal(result.unreadable, undefined, `${command}: a lockout is readable, just destructive`);
  }
});

test("a guest's shell decides the grading: POSIX rules on sh/ash, nothing read on Windows", () => {
  // read-only under bash; under sh these are bash-only and the proof does not speak for them
  for (const command of ["echo $'\\x41'", "cat <(ls)"]) {
    assert.equal(classifier.classify(command, "lxc", "bash").risk, "read_only", command);
    assert.notEqual(classifier.classify(command, "lxc", "posix").risk, "read_only", command);
  }
  // plain POSIX reads stay read-only under sh
  for (const command of ["ls -la /etc", "cat /etc/os-release | head -n 3", "df -h"])
    assert.equal(classifier.classify(command, "lxc", "posix").risk, "read_only", command);
  // cmd.exe: whatever the bash grammar thinks of the text, the operator reads and types it
  for (const command of ["ver", "dir C:\\", "rmdir /s /q C:\\data", "echo hi"]) {
    const result = classifier.classify(command, "vm", "windows");
    assert.equal(result.risk, "destructive", command);
    assert.equal(result.unreadable, "windows_command", command);
  }
  assert.equal(classifier.classify("", "vm", "windows").risk, "reject");
});

test("inspect: the classification and the lint of classify and lint apart, from one parse of the command", async () => {
  const dual = createDualParser(await loadBashParser(), loadSecondParser());
  const parsed: string[] = [];
  const counting = createClassifier({
    parse(source) {
      parsed.push(source);
      return dual.parse(source);
    },
    wasmHeapBytes: () => dual.wasmHeapBytes(),
  });
  // every 7th corpus line, and the shapes that parse nested scripts or fail the lint
  const sample = [
    ...CORPUS.filter((_, index) => index % 7 === 0).map((entry) => entry.command),
    "bash -c 'ls /' && sh -c 'cat /etc/hostname'",
    "echo 'unbalanced",
    "ls \\",
    "",
  ];
  for (const command of sample) {
    parsed.length = 0;
    const both = counting.inspect(command, "host");
    const once = new Set(parsed);
    assert.equal(parsed.length, once.size, `${command}: a source parsed twice in one inspect`);
    assert.deepEqual(both.classification, classifier.classify(command, "host"), command);
    assert.deepEqual(both.lint, classifier.lint(command), command);
  }
});
