import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import type { JailGrant } from "../../policy/jail-grant.ts";
import { hiddenByJail } from "../../policy/jail-hidden.ts";
import { type LabRun, runInLab } from "../../test-support/diagnostics/lab-runner.ts";

/**
 * `ping` with the network grant (issue #27). Debian's ping carries a file capability
 * (cap_net_raw+ep), and the kernel refuses to start a program whose file capabilities the bounding
 * set would cut: the jail keeps cap_net_raw in the bounding set when the network is granted
 * (jail.bash `netraw=1`). That capability is the jail's user namespace's, which owns no network
 * namespace, so a raw socket in the host's is still refused; ping then uses an ICMP datagram
 * socket where net.ipv4.ping_group_range allows the login, as it does unjailed. Each run is in a
 * network namespace the test made (systemd's range in one, the kernel's default in the other), with
 * an unjailed control.
 */
const run = promisify(execFile);
const root = process.getuid?.() === 0;
const NETWORK: JailGrant[] = [{ resource: "network" }];
const PING = "ping -c 1 -W 2 127.0.0.1";
const RAW_SOCKET = `perl -MSocket -e 'socket(my $s, PF_INET, SOCK_RAW, 1) or die "raw: $!\\n"; print "raw socket\\n"'`;

function assertJailed(result: LabRun, what: string): void {
  assert.equal(result.jail?.state, "jailed", `${what}: the jail did not start: ${result.stderr}`);
}

describe("ping with the network grant: it starts, and raw sockets stay refused", {
  skip: root ? false : "needs root (network namespaces)",
}, () => {
  const systemd = `oikos-ping-${process.pid}`;
  const kernel = `oikos-ping-k-${process.pid}`;

  before(async () => {
    for (const [netns, range] of [
      [systemd, "0 2147483647"],
      [kernel, "1 0"],
    ] as const) {
      await run("ip", ["netns", "add", netns]);
      await run("ip", ["-n", netns, "link", "set", "lo", "up"]);
      await run("ip", ["netns", "exec", netns, "sysctl", "-qw", `net.ipv4.ping_group_range=${range}`]);
    }
  });
  after(async () => {
    for (const netns of [systemd, kernel]) await run("ip", ["netns", "del", netns]).catch(() => {});
  });

  test("where the group range allows ICMP datagram sockets (systemd's default), ping answers as unjailed", async () => {
    const jailed = await runInLab(PING, { jail: true, grants: NETWORK, netns: systemd });
    const plain = await runInLab(PING, { jail: false, netns: systemd });
    assertJailed(jailed, "ping");
    assert.equal(plain.exitCode, 0, plain.stderr);
    assert.equal(jailed.exitCode, 0, jailed.stderr);
    assert.match(jailed.stdout, /1 packets transmitted, 1 received/);
    assert.equal(jailed.stderr, plain.stderr);
  });

  test("a raw socket is still refused in the jail (the capability reaches nothing); the control makes one", async () => {
    const jailed = await runInLab(RAW_SOCKET, { jail: true, grants: NETWORK, netns: systemd });
    assertJailed(jailed, "raw socket");
    assert.equal(jailed.stdout, "");
    assert.match(jailed.stderr, /raw: Operation not permitted/);
    const plain = await runInLab(RAW_SOCKET, { jail: false, netns: systemd });
    assert.equal(plain.stdout, "raw socket\n", plain.stderr);
  });

  test("cap_net_raw stays out of the bounding set without the network grant", async () => {
    const bounding = async (grants: JailGrant[]) => {
      const result = await runInLab("grep CapBnd /proc/self/status", { jail: true, grants, netns: systemd });
      assertJailed(result, "CapBnd");
      return BigInt(`0x${result.stdout.trim().split(/\s+/)[1]}`) & (1n << 13n);
    };
    assert.notEqual(await bounding(NETWORK), 0n);
    assert.equal(await bounding([{ resource: "netlink" }]), 0n);
    assert.equal(await bounding([]), 0n);
  });

  test("where the group range allows none (the kernel's default), jailed ping fails and the result says so", async () => {
    const jailed = await runInLab(PING, { jail: true, grants: NETWORK, netns: kernel });
    assertJailed(jailed, "ping");
    assert.notEqual(jailed.exitCode, 0);
    const { hidden } = hiddenByJail({ result: jailed, grants: NETWORK, net: "host", command: PING });
    assert.ok(
      hidden.some((item) => item.kind === "capability"),
      `not reported: ${jailed.stderr}`,
    );
    const plain = await runInLab(PING, { jail: false, netns: kernel });
    assert.equal(plain.exitCode, 0, `the control (root, with ping's capability): ${plain.stderr}`);
  });
});
