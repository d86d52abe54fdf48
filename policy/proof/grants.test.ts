import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "../classify.ts";
import { grantKey, type JailGrant } from "../jail-grant.ts";

const classifier = await loadClassifier();
const keys = (command: string) => {
  const result = classifier.classify(command, "host");
  assert.equal(result.risk, "read_only", `${command}: ${result.reasons[0]}`);
  return (result.grants ?? []).map(grantKey);
};

test("a proven command's grants are the union over its pieces, each once", () => {
  assert.deepEqual(keys("zfs list; zpool status -x && blkid"), ["block_devices", "zfs"]);
  assert.deepEqual(keys("ss -tln; ip -br addr; ss -s"), ["netlink"]);
  assert.deepEqual(keys("smartctl -a /dev/sda; smartctl -a /dev/sdb; smartctl -H /dev/sda"), [
    "device:/dev/sda",
    "device:/dev/sdb",
  ]);
  assert.deepEqual(keys("cat /etc/hostname"), []);
});

test("a device the command reads is granted by its path, however the command reaches it", () => {
  assert.deepEqual(keys("dd if=/dev/sdb bs=512 count=1 | xxd"), ["device:/dev/sdb"]);
  assert.deepEqual(keys("head -c 512 < /dev/nvme0n1 | od -c"), ["device:/dev/nvme0n1"]);
  assert.deepEqual(keys("sudo blkid /dev/mapper/pve-root"), ["device:/dev/mapper/pve-root"]);
  assert.deepEqual(keys("blkid"), ["block_devices"]);
  assert.deepEqual(keys("ls -l /dev/disk/by-id/"), ["block_devices"]);
  assert.deepEqual(keys("ls -l /dev/sd*"), ["block_devices"]);
  assert.deepEqual(keys("cat /proc/net/tcp"), ["netlink"]);
});

test("what runs elsewhere is never auto-run, so it carries no grants (not even the way there)", () => {
  for (const command of [
    "ssh nas smartctl -a /dev/sda",
    "docker exec web cat /proc/net/tcp",
    "pct exec 101 -- dmesg",
    // a proven piece beside it lends it nothing
    "zfs list; ssh nas zfs list",
  ]) {
    const result = classifier.classify(command, "host");
    assert.equal(result.risk, "config_mutation", command);
    assert.equal(result.grants, undefined, command);
    assert.ok(result.elsewhere, command);
  }
});

test("a resource no user-namespace jail can grant sends the run outside it, by the spec's name", () => {
  const unjailed = (command: string) =>
    (classifier.classify(command, "host").grants ?? []).filter(
      (g): g is Extract<JailGrant, { resource: "unjailed" }> => g.resource === "unjailed",
    );
  assert.deepEqual(unjailed("nft list ruleset"), [
    { resource: "unjailed", needs: "CAP_NET_ADMIN", spec: "nft" },
  ]);
  assert.deepEqual(unjailed("iptables -S"), [
    { resource: "unjailed", needs: "CAP_NET_ADMIN", spec: "iptables" },
  ]);
});

test("a command the proof does not prove carries no grants", () => {
  for (const command of [
    "smartctl -s on /dev/sda",
    "zpool status -c upath",
    "dmesg -C",
    "cat </dev/tcp/h/80",
  ]) {
    const result = classifier.classify(command, "host");
    assert.notEqual(result.risk, "read_only", command);
    assert.equal(result.grants, undefined, command);
  }
});

test("other processes' descriptors and the kernel log: read outside the jail by name, alone or with text filters", () => {
  const processInfo = "other processes' descriptors and sockets (CAP_SYS_PTRACE)";
  assert.deepEqual(keys("ss -tlnp"), [`unjailed:${processInfo}:ss`]);
  assert.deepEqual(keys("lsof -nP -iTCP -sTCP:LISTEN | grep ssh"), [`unjailed:${processInfo}:lsof`]);
  assert.deepEqual(keys("fuser -v -n tcp 22"), [`unjailed:${processInfo}:fuser`]);
  assert.deepEqual(keys("netstat -tlnp"), [`unjailed:${processInfo}:netstat`]);
  assert.deepEqual(keys("dmesg -T | tail -n 50"), [
    "unjailed:the kernel log (CAP_SYSLOG where kernel.dmesg_restrict is 1):dmesg",
  ]);
  // another piece would run outside the jail with them: asked, with the way to split it
  for (const command of ["ss -tlnp; ip -br addr", "zfs list && dmesg"]) {
    const result = classifier.classify(command, "host");
    assert.notEqual(result.risk, "read_only", command);
    assert.match(result.reasons.join(" "), /run .* on its own/, command);
  }
});

test("what runs outside the jail by name never runs for ever nor enters another namespace", () => {
  for (const command of ["dmesg -w", "dmesg --follow", "dmesg -Tw", "ss -Ep", "ss -tp -N other"]) {
    assert.notEqual(classifier.classify(command, "host").risk, "read_only", command);
  }
});

test("what runs outside the jail by name resolves no name: numeric, fixed text, addresses only", () => {
  for (const command of [
    "ss -tp evil.example",
    "ss -tnp dst evil.example",
    "ss -tnp '( src evil.example or dport = :22 )'",
    "ss -tnp DST 192.0.2.1",
    "ss -tnp dst 1.2.3.4.5",
    "ss -tnp dst cafe.de",
    "lsof -i :22",
    "lsof +L1",
    "lsof -n -i @evil.example",
    "lsof -nP -iTCP@evil.example:22",
    "lsof -nai@evil.example",
    "lsof -n +r",
    "lsof -n +M",
    "lsof -n +m",
    "lsof -n -r 2",
    "lsof -n -p $PID",
    "lsof -n -- $file",
    "netstat -tulp",
    "netstat -cp",
    "netstat -tnp -c",
    "netstat -tnp $x",
    "fuser -n tcp 22,evil.example",
    "fuser 22,evil.example/tcp",
    "fuser -n udp 53,dead.beef,53",
    "fuser -v -- $x",
  ]) {
    const result = classifier.classify(command, "host");
    assert.notEqual(result.risk, "read_only", command);
    assert.ok(result.reasons.join(" ").length > 0, command);
  }
  const processInfo = "other processes' descriptors and sockets (CAP_SYS_PTRACE)";
  for (const [command, spec] of [
    ["ss -tnp dst 192.0.2.1", "ss"],
    ["ss -tnp 'dst 192.0.2.1:22'", "ss"],
    ["ss -tnp 'dst [2001:db8::1]:443'", "ss"],
    ["ss -tnp dst ::ffff:192.0.2.1", "ss"],
    ["ss -tnp state established '( dport = :ssh or sport = :22 )'", "ss"],
    ["ss -tnp dev eth0", "ss"],
    ["lsof -n -i :22", "lsof"],
    ["lsof -n +L1", "lsof"],
    ["lsof -n -i @192.0.2.1:22", "lsof"],
    ["lsof -n -c sshd", "lsof"],
    ["netstat -tulpn", "netstat"],
    ["fuser -n tcp 22,192.0.2.1", "fuser"],
    ["fuser 22,192.0.2.1/tcp", "fuser"],
  ] as const)
    assert.deepEqual(keys(command), [`unjailed:${processInfo}:${spec}`], command);
  // inside the jail a name is harmless (no network), so the jailed forms stay as they were
  assert.deepEqual(keys("ss -tn dst evil.example"), ["netlink"]);
  assert.deepEqual(keys("netstat -tn"), ["netlink"]);
});

test("refusals of names outside the jail say what to type instead", () => {
  const reason = (command: string) => classifier.classify(command, "host").reasons.join(" ");
  assert.match(reason("lsof -i :22"), /add -n/);
  assert.match(reason("netstat -tulp"), /add -n/);
  assert.match(reason("ss -tp dst evil.example"), /dst 192\.0\.2\.1|drop -p/);
  assert.match(reason("fuser -n tcp 22,evil.example"), /by address/);
});

test("a run outside the jail takes only fixed words, and the refusal says how to write it", () => {
  for (const command of [
    "podman ps $x",
    "podman inspect $(cat id)",
    "podman logs -f web",
    "podman logs --follow web",
    "qm config $id",
    "pct config ${CT}",
    "wg show $IF",
    "lsipc $x",
    "iptables -n -L -- $chain",
  ]) {
    const result = classifier.classify(command, "host");
    assert.notEqual(result.risk, "read_only", command);
    assert.equal(result.grants, undefined, command);
  }
  assert.match(
    classifier.classify("qm config $id", "host").reasons.join(" "),
    /runs outside the jail .* every word must be fixed text/,
  );
  // the same words inside the jail are another matter: the jail holds what the proof misses
  assert.deepEqual(keys("docker logs --tail 50 $name"), ["socket:docker"]);
});

test("a run outside the jail is never looped: only the timeout would end it", () => {
  for (const command of [
    "while true; do dmesg; done",
    "until false; do ss -tlnp; done",
    "while :; do df -h | grep sda; done",
    "bash -c 'while true; do nft list ruleset; done'",
    "while true; do bash -c 'lsof -n +L1'; done",
  ]) {
    const result = classifier.classify(command, "host");
    assert.notEqual(result.risk, "read_only", command);
    assert.match(result.reasons.join(" "), /only the timeout would end/, command);
  }
  // once, or over fixed words, or a jailed loop: proven
  assert.deepEqual(keys("for i in 1 2 3; do dmesg | tail -n 1; done").length, 1);
  assert.deepEqual(keys('while read -r line; do echo "$line"; done < /etc/hostname'), []);
});

test("second outside attack on runs outside the jail: each form asks", () => {
  for (const command of [
    // an option whose value is optional takes the next word as an option of its own
    "lsof -n -i -r",
    "lsof -n -g -r1",
    "lsof -n -s -r1",
    "lsof -n -F -r1",
    "lsof -n -i -E",
    // `n` inside an attached value is not -n
    "lsof -cn -i 4",
    "lsof -Fn -i 4",
    "lsof -unobody -i 4",
    "iptables -L -tnat",
    "ip6tables -L -tmangle",
    // state names are hosts unless they follow `state`/`exclude`
    "ss -tp established",
    "ss -tnp listening",
    "ss -tp dport = :22 or bucket",
    // a whole-tree walk; optional values; actions behind reads
    "lsof -n +D /",
    "lxc-ls --nesting -o /tmp/x",
    "podman logs -n -f web",
    "pct df 101",
    "qm showcmd 100",
    // a time zone or locale that is a path is opened by glibc
    "TZ=:/dev/watchdog dmesg -T",
    "TZ=/tmp/fifo dmesg -T",
    "TZ=$zone dmesg -T",
    "LC_ALL=/tmp/x lsipc",
    // text filters beside a run outside the jail run outside it too
    "dmesg | tail -f /var/log/syslog",
    "lsof -n | tail -F /tmp/x",
    "dmesg | cat /tmp/fifo",
    "dmesg | grep -f /tmp/fifo",
    "dmesg; cat /proc/kmsg",
    "nft list ruleset | cat /proc/kmsg",
    "dmesg | grep -r x /",
    "dmesg | grep -r x",
    "dmesg | cat < /proc/kmsg",
  ]) {
    const result = classifier.classify(command, "host");
    assert.notEqual(result.risk, "read_only", command);
  }
  for (const command of [
    "lsof -n -i 4",
    "lsof -nP -iTCP -sTCP:LISTEN | grep ssh",
    "iptables -tnat -nL",
    "iptables -L -n -t nat",
    "ss -tnp state established state syn-sent '( dport = :22 )'",
    "lxc-ls -F NAME,STATE",
    "podman logs -n web",
    "TZ=Europe/Berlin dmesg -T | tail -n 50",
    "dmesg | grep -i -e usb -e sda | head -20",
    "ss -tlnp | grep -E ':22|:80' | sort -k4",
  ])
    assert.equal(classifier.classify(command, "host").risk, "read_only", command);
});

test("third outside attack: the shell around a run outside the jail, and reads that leave by the network grant", () => {
  for (const command of [
    // the shell itself reads beside a run outside the jail
    "x=$(< /proc/kmsg); dmesg",
    'dmesg <<< "$(< /proc/kmsg)"',
    "x=$(< /tmp/fifo); ss -tnp",
    "dmesg < /tmp/fifo",
    'dmesg | grep -e "$(< /tmp/fifo)"',
    "for x in a; do dmesg; done < /tmp/fifo",
    "dmesg <<< x",
    "dmesg <<EOF\nx\nEOF",
    // unbounded beside it
    "dmesg | sort -S 1k",
    'dmesg | jq -n "range(1e12)"',
    "echo {1..999999999}; dmesg",
    "printf %0999999999d 0; dmesg",
    // curl guesses DICT/FTP/… from the host name; redirects go unread
    "curl --resolve dict.x:6379:127.0.0.1 dict.x:6379/flushall",
    "curl dict.x:6379/flushall",
    "curl ftp.example.org/pub/",
    "curl -s -L http://127.0.0.1:8080/",
    "curl -s --location https://evil.example/",
    "wget -qO- http://localhost:9100/metrics",
    "wget -qO- --max-redirect=5 http://localhost:9100/metrics",
    // a table that does not exist loads a kernel module
    "iptables -t foo -L -n",
    "iptables-save -t foo",
  ]) {
    assert.notEqual(classifier.classify(command, "host").risk, "read_only", command);
  }
  for (const command of [
    "dmesg -T | tail -n 50",
    "dmesg | sort | uniq -c",
    "curl -sS http://127.0.0.1:3000/api/healthz",
    "curl localhost:9090/-/healthy",
    "wget -qO- --max-redirect=0 http://localhost:9100/metrics",
    "iptables -t nat -L -n",
    "docker ps < /dev/null",
    "cat < /etc/hostname",
    "echo {1..3}",
  ])
    assert.equal(classifier.classify(command, "host").risk, "read_only", command);
});

test("fourth outside attack: grants used beyond a read", () => {
  for (const command of [
    // tmux runs `;`-joined commands in its server, outside any jail
    "tmux ls \\; kill-server",
    "tmux ls ';' run-shell 'id > /tmp/pwn'",
    "tmux has-session -t x \\; kill-server",
    "tmux ls 'x;'",
    // a query line to any TCP service
    "whois -h 127.0.0.1:6379 FLUSHALL",
    "whois -h127.0.0.1:11211 flush_all",
    "dig +tcp -p 11211 @127.0.0.1 'flush_all .aaaaaaaaaa'",
    // a remote defined in the command, with a `/` in an option's value
    "rclone lsf 'nas,bearer_token_command=/usr/bin/id:'",
    "rclone lsf 'nas,description=a/b,host=evil.example:'",
    // a local file's text sent to the API server
    'kubectl get pods -l "$(cat /etc/shadow)"',
    'helm status "$(cat /etc/shadow)"',
    // opening an optical drive closes its tray
    "dd if=/dev/sr0 bs=512 count=1",
  ])
    assert.notEqual(classifier.classify(command, "host").risk, "read_only", command);
  for (const command of [
    "tmux ls",
    "tmux list-sessions -F '#{session_name}'",
    "whois -h whois.ripe.net 192.0.2.1",
    "dig -p 53 @127.0.0.1 example.org",
    "rclone lsf nas:photos",
    "kubectl get pods -A",
  ])
    assert.equal(classifier.classify(command, "host").risk, "read_only", command);
});

test("fifth outside attack: optional values, init.d names, cache writes, ps through dockerd", () => {
  for (const command of [
    // the next word is not an optional value: the tool reads it as an option (getopt prefixes too)
    "sfdisk -l --color --del /dev/sda",
    "fdisk -l --color --del /dev/sda",
    "journalctl -n --vacuum-t=1s",
    "journalctl --boot --vacuum-f=1",
    "journalctl -n --rot",
    "journalctl --lines --flush",
    "journalctl -I --flus",
    // without systemd, service runs /etc/init.d/NAME
    "service ../../usr/bin/id status",
    "service --full-restart status",
    "service -Hroot@h status",
    "blkid -g",
    "docker top web -- -eo pid,args",
    "docker top web aux",
  ])
    assert.notEqual(classifier.classify(command, "host").risk, "read_only", command);
  for (const command of [
    "sfdisk -l --color=auto /dev/sda",
    "journalctl -n 20 --no-pager",
    "journalctl -u nginx -n 100",
    "journalctl --boot -1 --lines 30",
    "journalctl -b -1",
    "service nginx status",
    "docker top web",
  ])
    assert.equal(classifier.classify(command, "host").risk, "read_only", command);
});

test("sixth outside attack: what stands beside df/findmnt outside the jail, ethtool, ip -c", () => {
  const outsideGrant = (command: string) =>
    (classifier.classify(command, "host").grants ?? []).some((g) => g.resource === "unjailed");
  // beside a run outside the jail these would look up paths or open files there: the tool goes
  // back inside the jail (df, findmnt) or the command asks
  for (const command of [
    'findmnt -J | jq "include \\"x\\" {search: \\"/net/host\\"}; ."',
    'findmnt -J | jq "import \\"m\\" as $m {search: \\"/tmp\\"}; ."',
    "df -h; test -e /proc/sys/fs/binfmt_misc/status",
    "findmnt; cd /net/fileserver",
    "df -h && [ -d /net/fileserver/export ]",
    "df -h && [[ -d /net/x ]]",
    // outside the jail an old ethtool's ioctl loads the module a name names
    "ethtool dummy",
    "ethtool eth0",
  ])
    assert.equal(outsideGrant(command), false, command);
  for (const command of ["ip -c link a get type bridge", "ip -c netns a show"])
    assert.notEqual(classifier.classify(command, "host").risk, "read_only", command);
  assert.deepEqual(keys("ip -c addr show"), ["netlink"]);
  assert.equal(outsideGrant("findmnt -J | jq -r '.filesystems[].target'"), true);
});

test("seventh outside attack: words bash expands beside a run outside the jail, and who runs it", () => {
  for (const command of [
    "dmesg | grep {x,/proc/kmsg}",
    "dmesg | grep /proc/k*",
    'x="a /proc/kmsg"; dmesg | grep $x',
    "dmesg | grep $(echo x /proc/kmsg)",
    "dmesg | grep ${HOME:-a /proc/kmsg}",
    'for x in "a /proc/kmsg"; do dmesg | grep $x; done',
    "ss -tp | grep {x,/proc/kmsg}",
    // outside the jail sudo really authenticates (PAM counts -S password attempts) and logs
    "echo x | sudo -S -k dmesg",
    "sudo dmesg",
    "doas -u x dmesg",
    "pkexec ss -p",
  ])
    assert.notEqual(classifier.classify(command, "host").risk, "read_only", command);
  for (const command of ["dmesg | grep -i usb", "dmesg | grep -e usb -e sda", "sudo -n zfs list"])
    assert.equal(classifier.classify(command, "host").risk, "read_only", command);
});

test("what runs outside the jail names no path to look up: an automount mounts, a dead NFS mount hangs", () => {
  for (const command of [
    "lsof -nP /tmp/fifo",
    "lsof -n -- /net/host/x",
    "fuser -v /net/host/x",
    "fuser -vm /mnt",
    "fuser -v -- -k",
  ])
    assert.notEqual(classifier.classify(command, "host").risk, "read_only", command);
  for (const command of ["lsof -n -i :22", "lsof -n +c 15 -p 1", "fuser -v -n tcp 22", "fuser 22/tcp"])
    assert.equal(classifier.classify(command, "host").risk, "read_only", command);
  assert.match(classifier.classify("fuser -vm /mnt", "host").reasons.join(" "), /fuser -v -n tcp 22/);
});
