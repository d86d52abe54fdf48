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

test("what was granted is not called hidden; nothing hidden, no note", () => {
  const granted = hiddenByJail({
    result: run("blkid: /dev/sda: Permission denied\ncurl: (7) Network is unreachable"),
    grants: [{ resource: "block_devices" }, { resource: "network" }],
    net: "host",
  });
  assert.deepEqual(granted, { hidden: [], note: null });
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
