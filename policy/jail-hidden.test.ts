import assert from "node:assert/strict";
import { test } from "node:test";
import { hiddenByJail } from "./jail-hidden.ts";

const run = (stderr: string, exitCode = 1) => ({ exitCode, stdout: "", stderr });

test("what the jail hid, from what tools print: a device, the network, a socket, the kernel log", () => {
  const { hidden, note } = hiddenByJail({
    result: run(
      [
        "head: cannot open '/dev/vda' for reading: Permission denied",
        "curl: (6) Could not resolve host: example.org",
        "Failed to connect to bus: Address family not supported by protocol",
        "dmesg: read kernel buffer failed: Operation not permitted",
        "bash: /dev/null: Permission denied",
      ].join("\n"),
    ),
    grants: [],
    net: "private",
  });
  assert.deepEqual(
    hidden.map((item) => [item.kind, item.what]),
    [
      ["device", "/dev/vda"],
      ["network", "the network"],
      ["socket", "Unix sockets (D-Bus, docker.sock …)"],
      ["kernel_log", "the kernel log"],
    ],
  );
  assert.match(String(note), /^the read-only jail hid \/dev\/vda, the network, .* from this command/);
});

test("what was granted is not called hidden (a refused granted device is read-only, not hidden); nothing hidden, no note", () => {
  const granted = hiddenByJail({
    result: run("blkid: /dev/sda: Permission denied\ncurl: (7) Network is unreachable"),
    grants: [{ resource: "block_devices" }, { resource: "network" }],
    net: "host",
  });
  assert.deepEqual(
    granted.hidden.map((item) => [item.kind, item.what]),
    [["read_only_device", "/dev/sda (granted read-only)"]],
  );
  assert.deepEqual(hiddenByJail({ result: run("", 0), grants: [], net: "private" }), {
    hidden: [],
    note: null,
  });
  const device = hiddenByJail({
    result: run("smartctl: /dev/sdb: Permission denied"),
    grants: [{ resource: "device", path: "/dev/sda" }],
    net: "private",
  });
  assert.deepEqual(
    device.hidden.map((item) => item.what),
    ["/dev/sdb"],
  );
});

test("a granted device the tool tried to write, a capability, the jail's own mounts and pid: said so", () => {
  const { hidden, note } = hiddenByJail({
    result: {
      exitCode: 1,
      stdout: [
        "Filesystem     Size  Used Avail Use% Mounted on",
        "/dev/vda        79G  6.5G   69G   9% /",
        "oikos-jail      64M     0   64M   0% /var/local",
      ].join("\n"),
      stderr: [
        "Warning: Unable to open /dev/loop0 read-write (Permission denied).  /dev/loop0 has been opened read-only.",
        "netlink error: Operation not permitted",
        "fatal library error, lookup self",
      ].join("\n"),
    },
    grants: [{ resource: "device", path: "/dev/loop0" }],
    net: "host",
  });
  assert.deepEqual(
    hidden.map((item) => item.kind),
    ["read_only_device", "capability", "own_pid", "mount_table"],
  );
  assert.match(
    String(note),
    /opens \/dev\/loop0 \(granted read-only\) read-only and the tool asked to write it/,
  );
  assert.match(String(note), /ask for it in a plan/);
});

test("the jail's mount options alone (findmnt /) are the jail's mount table; the target's ordinary output is not", () => {
  const findmnt = hiddenByJail({
    result: { exitCode: 0, stdout: "/ /dev/vda ext4 ro,nodev,relatime,discard\n", stderr: "" },
    grants: [],
    net: "private",
  });
  assert.deepEqual(
    findmnt.hidden.map((item) => item.kind),
    ["mount_table"],
  );
  const plain = hiddenByJail({
    result: {
      exitCode: 0,
      stdout: "/ /dev/vda ext4 rw,relatime,discard\nro,nodevice is a word\n",
      stderr: "",
    },
    grants: [],
    net: "private",
  });
  assert.deepEqual(plain, { hidden: [], note: null });
});

test("exit 0 and nothing printed, for a device the command names and the jail did not grant: hidden, though no line says so", () => {
  const silent = { exitCode: 0, stdout: "", stderr: "" };
  const { hidden, note } = hiddenByJail({
    result: silent,
    command: "blkid /dev/vda",
    grants: [],
    net: "private",
  });
  assert.deepEqual(
    hidden.map((item) => [item.kind, item.what, item.evidence]),
    [["device", "/dev/vda", "it exited 0 and printed nothing"]],
  );
  assert.match(String(note), /hid \/dev\/vda/);
  const redirected = hiddenByJail({
    result: silent,
    command: "dd if=/dev/sdb of=/dev/null count=1 2>/dev/null",
    grants: [],
    net: "private",
  });
  assert.deepEqual(
    redirected.hidden.map((item) => item.what),
    ["/dev/sdb"],
  );
  // granted, or it printed something, or it failed: nothing is made up
  for (const [result, grants] of [
    [silent, [{ resource: "device", path: "/dev/vda" }]],
    [{ exitCode: 0, stdout: '/dev/vda: TYPE="ext4"\n', stderr: "" }, []],
    [{ exitCode: 2, stdout: "", stderr: "" }, []],
  ] as const)
    assert.deepEqual(hiddenByJail({ result, command: "blkid /dev/vda", grants, net: "private" }).hidden, []);
  const file = hiddenByJail({
    result: { exitCode: 0, stdout: "/dev/loop0: writable, no read permission\n", stderr: "" },
    grants: [],
    net: "private",
  });
  assert.deepEqual(
    file.hidden,
    [],
    "stdout is the command's answer: read only for a device the command names",
  );
  const named = hiddenByJail({
    result: { exitCode: 0, stdout: "/dev/loop0: writable, no read permission\n", stderr: "" },
    command: "file -s /dev/loop0",
    grants: [],
    net: "private",
  });
  assert.deepEqual(
    named.hidden.map((item) => [item.kind, item.what]),
    [["device", "/dev/loop0"]],
  );
});

test("other processes' files under /proc: said when denied, and when readlink fails silently", () => {
  const denied = hiddenByJail({
    result: {
      exitCode: 2,
      stdout: "lrwxrwxrwx 1 root root 0 Dec  2 02:57 /proc/2218/exe\n",
      stderr: "ls: cannot read symbolic link '/proc/2218/exe': Permission denied\n",
    },
    grants: [],
    net: "private",
  });
  assert.deepEqual(
    denied.hidden.map((item) => item.kind),
    ["process_info"],
  );
  assert.match(String(denied.note), /cannot read other processes' files under \/proc/);
  const silent = hiddenByJail({
    result: { exitCode: 1, stdout: "", stderr: "" },
    command: "readlink /proc/2218/cwd",
    grants: [],
    net: "private",
  });
  assert.deepEqual(
    silent.hidden.map((item) => [item.kind, item.evidence]),
    [["process_info", "/proc/2218/cwd: it failed and printed nothing"]],
  );
  // its own /proc files and ordinary /proc reads are not flagged
  for (const command of ["cat /proc/self/status", "cat /proc/loadavg", "cat /proc/2218/status"])
    assert.deepEqual(
      hiddenByJail({ result: { exitCode: 1, stdout: "", stderr: "" }, command, grants: [], net: "private" })
        .hidden,
      [],
    );
});
