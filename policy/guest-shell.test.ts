import assert from "node:assert/strict";
import { test } from "node:test";
import {
  osFromAgentId,
  osFromOstype,
  recordedShell,
  shellDialect,
  shellFromOstype,
  shellFromProbe,
  shellJailReason,
} from "./guest-shell.ts";

test("ostype: Debian-family containers have bash, Alpine and unmanaged are probed, win* VMs run cmd.exe", () => {
  for (const ostype of [
    "debian",
    "ubuntu",
    "devuan",
    "centos",
    "fedora",
    "opensuse",
    "archlinux",
    "gentoo",
    "nixos",
  ])
    assert.equal(shellFromOstype("lxc", ostype), "bash", ostype);
  for (const ostype of ["alpine", "unmanaged", null])
    assert.equal(shellFromOstype("lxc", ostype), null, String(ostype));
  for (const ostype of ["win11", "win10", "win8", "win7", "wvista", "wxp", "w2k", "w2k8"]) {
    assert.equal(osFromOstype("qemu", ostype), "windows", ostype);
    assert.equal(shellFromOstype("qemu", ostype), "cmd", ostype);
  }
  assert.equal(osFromOstype("qemu", "l26"), "linux");
  assert.equal(shellFromOstype("qemu", "l26"), null, "a Linux VM may be anything: probed at first contact");
  assert.equal(osFromOstype("qemu", "solaris"), "unknown");
  assert.equal(osFromOstype("qemu", null), "unknown");
  assert.equal(osFromOstype("lxc", "alpine"), "linux");
});

test("probe: bash wins; busybox's sh is ash; a plain sh is POSIX sh; a guest that cannot start it has none", () => {
  const ran = (stdout: string) => shellFromProbe({ exitCode: 0, stdout });
  assert.equal(ran("bash=yes\nsh=/usr/bin/dash\n"), "bash");
  assert.equal(ran("bash=no\nsh=/bin/busybox\n"), "ash");
  assert.equal(ran("bash=no\nsh=/usr/bin/dash\n"), "sh");
  assert.equal(ran("bash=no\n"), null, "no sh line: inconclusive");
  assert.equal(shellFromProbe({ exitCode: 127, stdout: "" }), "none");
  assert.equal(shellFromProbe({ exitCode: 126, stdout: "" }), "none");
  assert.equal(
    shellFromProbe({
      exitCode: 255,
      stdout: "",
      stderr:
        'lxc-attach: 104: attach.c: lxc_attach_run_command: 1841 No such file or directory - Failed to exec "timeout"',
    }),
    "none",
  );
  assert.equal(
    shellFromProbe({ exitCode: -1, stdout: "", stderr: "error was 'Failed to execute child process “sh”'" }),
    "none",
  );
  assert.equal(shellFromProbe({ exitCode: 255, stdout: "", stderr: "CT 104 not running" }), null);
  assert.equal(shellFromProbe({ exitCode: null, stdout: "" }), null);
});

test("dialects: sh and ash are graded POSIX, cmd is Windows, bash and unknown are bash", () => {
  assert.equal(shellDialect("bash"), "bash");
  assert.equal(shellDialect(null), "bash");
  assert.equal(shellDialect("sh"), "posix");
  assert.equal(shellDialect("ash"), "posix");
  assert.equal(shellDialect("cmd"), "windows");
  assert.equal(osFromAgentId("mswindows"), "windows");
  assert.equal(osFromAgentId("alpine"), "linux");
  assert.equal(osFromAgentId(undefined), "unknown");
});

test("recorded shell: only a known value counts, and only a probe confirms it", () => {
  assert.deepEqual(recordedShell({ "guest.shell": "ash", "guest.shell_source": "probe" }), {
    shell: "ash",
    probed: true,
  });
  assert.deepEqual(recordedShell({ "guest.shell": "bash", "guest.shell_source": "ostype" }), {
    shell: "bash",
    probed: false,
  });
  assert.deepEqual(recordedShell({ "guest.shell": "zsh", "guest.shell_source": "probe" }), {
    shell: null,
    probed: false,
  });
  assert.deepEqual(recordedShell({}), { shell: null, probed: false });
});

test("a guest without bash cannot jail: the gate treats it as a target that cannot", () => {
  assert.equal(shellJailReason("bash"), null);
  assert.equal(shellJailReason(null), null);
  assert.match(shellJailReason("ash") ?? "", /busybox ash without bash.*jail runs under bash/);
  assert.match(shellJailReason("sh") ?? "", /POSIX sh/);
  assert.match(shellJailReason("cmd") ?? "", /Windows/);
  assert.equal(shellJailReason("none"), null, "a guest with no shell is not runnable at all");
});
