import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "../classify.ts";

const classifier = await loadClassifier();

/**
 * The proof's rules, one class at a time: each row is a command and whether it may stay
 * read_only. Rows that must not be read_only are forms found while attacking the proof.
 */
const NOT_READ_ONLY: readonly string[] = [
  // builtins that change the shell or evaluate code
  "hash -p /bin/rm ls; ls /tmp",
  "x='a[$(reboot)]'; echo $[x]",
  "x='a[$(reboot)]'; echo \"$[x]\"",
  "x='a[$(reboot)]'; echo $((x))",
  "for v in 'a[$(reboot)]'; do echo $((v)); done",
  "read v; [[ $v -eq 1 ]]",
  "echo ${x@P}",
  "echo ${!x}",
  "echo ${a[$i]}",
  "echo ${x:=5}",
  'echo $"translated"',
  "printf -v 'a[$(reboot)]' %s 1",
  "test -v 'a[$(reboot)]'",
  "PS4='$(reboot)'; set -x; ls",
  "set -o xtrace",
  "shopt -s expand_aliases",
  "history -w /tmp/h",
  "trap 'reboot' EXIT",
  "kill -9 1",
  "declare -i x=1",
  "export PATH=/tmp",
  "PATH=/tmp; ls",
  "X=1 ls",
  "alias ls=reboot",
  "eval ls",
  "exec ls",
  "source /dev/stdin",
  // environment that runs programs
  "GIT_EXTERNAL_DIFF=x git diff",
  "LESSOPEN='|reboot %s' cat /etc/hosts",
  "PAGER=reboot git log",
  "GCONV_PATH=/tmp ls",
  "env LD_PRELOAD=/tmp/x.so ls",
  "sudo PATH=/tmp ls",
  // flags and mini-languages
  "sort --compress-program=sh x",
  "sort --compress-prog=sh x",
  "sort -o /tmp/x a",
  "sort $opts a",
  "git grep --open-files-in-pager=sh x",
  "git -c core.pager=sh log",
  "git log --output=/tmp/x",
  "uniq a b",
  "awk 'BEGIN { system(\"reboot\") }'",
  "awk '{ print | \"sh\" }' x",
  "awk 'BEGIN { \"date\" | getline d }'",
  "awk '{ print > \"/tmp/x\" }' x",
  'awk \'BEGIN { f = "system"; @f("reboot") }\'',
  "awk -f prog.awk x",
  "sed 'e reboot' x",
  "sed 's/x/reboot/e' x",
  "sed -n 'w /tmp/x' x",
  "sed 's/a/b/w /tmp/x' x",
  "sed 'r /dev/watchdog' x",
  "sed -i 's/a/b/' x",
  "find / -delete",
  "find / -exec rm {} +",
  "find / -fprint /tmp/x",
  "find $dir -name x",
  "find / -ok ls {} ;",
  "xargs sort",
  "xargs -I{} sh -c '{}'",
  "curl -o /tmp/x http://a",
  "curl gopher://127.0.0.1:6379/_FLUSHALL",
  "curl -X DELETE http://a/b",
  "wget http://a/x",
  "wget -qO- https://a/x",
  "psql -c 'SELECT my_func()'",
  "psql -c 'SELECT 1; DELETE FROM t'",
  "psql -c '\\! rm -rf /'",
  "mysql -e 'select * into outfile \"/tmp/x\" from t'",
  "ssh -oStrictHostKeyChecking=no host uptime",
  "ssh -o ProxyCommand='rm -rf /' host ls",
  "ssh host 'echo $(reboot)'",
  "ssh host \"echo \\$'x'\"",
  "systemctl --image=/tmp/x.raw status",
  "systemctl -H host status x",
  "systemctl restart nginx",
  "journalctl --vacuum-size=1M",
  "top",
  "less /etc/hosts",
  "vim -es -c ':!reboot' x",
  "man ls",
  "cat /dev/watchdog",
  "cat /d?v/watchdog",
  "cd /dev && cat watchdog*",
  "tar xzf x.tgz",
  "blkid -c /tmp/x",
  "ip netns exec x ls",
  "ip link set eth0 down",
  "sudo -s",
  "sudo cd /",
  "xargs cd",
  // parse differentials and what runs somewhere else
  "echo hi # \\\nreboot",
  "cat <<EOF\n`reboot`\nEOF",
  "ls `echo \\`reboot\\``",
  "sh -c 'echo $'\\''x'\\'''",
  "sh -c '[[ -f x ]]'",
  "docker exec web sh -c 'rm -rf /x'",
  "pct exec 101 -- rm -rf /x",
  "qm guest exec 100 rm /x",
  // read-only inside, but run outside every jail of oikos (policy/runs-elsewhere.ts): they ask
  "ssh host 'zpool status -x; zfs list'",
  "pct exec 101 -- bash -c 'df -h && free -m'",
  "bash -lc 'docker ps'",
  // destruction
  "> /etc/hosts",
  ": > /var/log/syslog",
  "cat /dev/null > /etc/hosts",
  "ls > /dev/sda",
  "ls 2> /etc/passwd",
];

const READ_ONLY: readonly string[] = [
  "ls -la /etc",
  "x=5; echo $((x * 2))",
  "echo $[1 + 2]",
  'systemctl status "$UNIT" --no-pager',
  "systemctl status nginx --no-pager -l",
  "cd /srv && ls",
  "kill -0 1234",
  "kill -l",
  "ls /srv/*",
  "du -sh /*",
  "for h in a b; do ping -c1 $h; done",
  'while read -r line; do echo "$line"; done < /etc/hosts',
  "awk '$3 > 5 { print $1 }' /etc/passwd",
  "sed -n '/x/{p;q}' /etc/hosts",
  "find /etc -name '*.conf' -exec grep -l x {} +",
  "xargs -n1 echo < /etc/shells",
  "curl -fsS -o /dev/null -w '%{http_code}' https://example.org",
  "psql -U postgres -c 'SELECT count(*) FROM pg_stat_activity'",
  "sudo -u postgres psql -c 'select version()'",
  "echo $'\\' ; reboot ; #'",
  "LC_ALL=C sort /etc/shells",
  "cat <<'EOF'\n$(reboot)\nEOF",
];

test("what writes, runs another program or changes state is never read_only", () => {
  const wrong = NOT_READ_ONLY.filter((command) => classifier.classify(command).risk === "read_only");
  assert.deepEqual(wrong, []);
});

test("benign read-only work stays read_only, proof and all", () => {
  const wrong = READ_ONLY.map((command) => [command, classifier.classify(command)] as const)
    .filter(([, result]) => result.risk !== "read_only")
    .map(([command, result]) => `${command}: ${result.reasons[0]}`);
  assert.deepEqual(wrong, []);
});

test("a command the proof rejects says which rule it broke", () => {
  const result = classifier.classify("sort --compress-program=sh x");
  assert.equal(result.risk, "config_mutation");
  assert.match(
    result.reasons[0] ?? "",
    /cannot be proven read-only: `sort --compress-program` is not an option proven read-only/,
  );
});

test("a read_only classification names the programs the command runs", () => {
  assert.deepEqual(classifier.classify("zcat x.gz | grep -c y").programs?.sort(), ["grep", "gzip", "zcat"]);
  assert.deepEqual(classifier.classify("find /etc -exec wc -l {} +").programs?.sort(), ["find", "wc"]);
  assert.equal(classifier.classify("rm -rf /x").programs, undefined);
});
