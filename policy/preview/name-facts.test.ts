import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "../classify.ts";
import { IDENTITY_PROBE, parseIdentity } from "./identity.ts";
import { mountOf, parseMountInfo, privateMountAt, privateMountsUnder } from "./mount-view.ts";
import {
  expansionProbe,
  forgetUnmappedOwners,
  nameFactsProbe,
  parseExpansion,
  parseNameFacts,
  parseStat,
  splitPath,
} from "./name-facts.ts";

const classifier = await loadClassifier();
const ran = (stdout: string, exitCode = 0, stderr = "") => ({ exitCode, stdout, stderr });

test("a path splits where the kernel splits it; names that are not files are said so", () => {
  assert.deepEqual(splitPath("/etc/app.conf"), { dir: "/etc", base: "app.conf" });
  assert.deepEqual(splitPath("app.conf"), { dir: ".", base: "app.conf" });
  assert.deepEqual(splitPath("/srv/x/"), { dir: "/srv", base: "x" });
  assert.deepEqual(splitPath("/f"), { dir: "/", base: "f" });
  assert.deepEqual(splitPath("a/../b"), { dir: "a/..", base: "b" });
  for (const path of ["/", "/etc/..", "/etc/.", "a\nb"]) assert.ok("unseen" in splitPath(path), path);
});

test("every probe that resolves names, expands words or asks who looks is proven read-only", () => {
  for (const probe of [
    nameFactsProbe("/etc", ["app.conf", "it's here", "-rf"]),
    nameFactsProbe("relative/dir", ["x"]),
    nameFactsProbe(".", ["x"]),
    expansionProbe(["/var/log/*.gz", "'/srv/my dir'/*"]),
    IDENTITY_PROBE,
  ]) {
    const verdict = classifier.classify(probe, "host");
    assert.equal(verdict.risk, "read_only", `${probe}: ${verdict.reasons.join("; ")}`);
  }
  // A name that looks like code is refused by the proof even quoted: that part is then not previewed.
  assert.notEqual(classifier.classify(nameFactsProbe("/etc", ["$(reboot)"]), "host").risk, "read_only");
  // A relative directory never goes through CDPATH: it is walked from where the command runs.
  assert.match(nameFactsProbe("relative/dir", ["x"]), /^cd -P -- \.\/relative\/dir /);
});

const STAT = (hexMode: string, uid = 1000, nlink = 1, ino = 7) =>
  `${hexMode} ${uid} ${uid} ${nlink} 65024 ${ino} 12`;

test("the facts of names in one directory read back; anything else is unseen, never a guess", () => {
  const stdout = [
    "D /srv/real",
    `S ${STAT("41ed")}`,
    "drwxr-sr-x+ 2 root root 4096 Dec  1 23:22 .",
    `E ${STAT("a1ff")}`,
    `T ${STAT("81a4", 0, 2, 9)}`,
    "R /etc/app.conf",
    "E -",
    "T -",
    "R /srv/real/new.conf",
    "",
  ].join("\n");
  const facts = parseNameFacts("/srv/link", ["/srv/link/app.conf", "/srv/link/new.conf"], ran(stdout));
  assert.ok(!("unseen" in facts));
  if ("unseen" in facts) return;
  const [link, missing] = facts;
  assert.equal(link?.name, "/srv/real/app.conf");
  assert.equal(link?.entry?.type, "link");
  assert.deepEqual(link?.target, {
    type: "file",
    mode: 0o644,
    uid: 0,
    gid: 0,
    nlink: 2,
    inode: "65024:9",
    size: 12,
  });
  assert.equal(link?.resolved, "/etc/app.conf");
  assert.equal(link?.dir.acl, true, "ls -ld shows an ACL");
  assert.equal(link?.dir.stat.mode, 0o755);
  assert.equal(missing?.entry, null);
  // A directory that cannot be entered, a short answer (a line break in a name), a garbled stat.
  assert.match(
    (
      parseNameFacts("/root", ["/root/x"], ran("", 1, "bash: line 1: cd: /root: Permission denied")) as {
        unseen: string;
      }
    ).unseen,
    /cannot see into `\/root` as the user the command runs as \(cd: \/root: Permission denied\)/,
  );
  assert.ok("unseen" in parseNameFacts("/srv", ["/srv/a"], ran(stdout.split("\n").slice(0, 5).join("\n"))));
  assert.ok("unseen" in parseNameFacts("/srv", ["/srv/a"], ran(stdout.replace("E a1ff", "E zzzz"))));
  assert.equal(parseStat("1000 0 0 1 1 1 0")?.type, "other", "a fifo is neither file, directory nor link");
});

test("owners the probe's namespace does not map are unknown, not the overflow id", () => {
  const stdout = [
    "D /srv",
    `S ${STAT("41ed", 65534)}`,
    "drwxr-xr-x 2 a b 1 x .",
    `E ${STAT("81a4", 65534)}`,
    `T ${STAT("81a4", 65534)}`,
    "R /srv/f",
    "",
  ].join("\n");
  const facts = parseNameFacts("/srv", ["/srv/f"], ran(stdout));
  if ("unseen" in facts) return assert.fail(facts.unseen);
  const [forgotten] = forgetUnmappedOwners(facts, { uid: 65534, gid: 65534 });
  assert.equal(forgotten?.entry?.uid, null);
  assert.equal(forgotten?.dir.stat.gid, null);
});

test("words expanded by the target's shell read back exactly, or not at all", () => {
  assert.deepEqual(parseExpansion(ran("/var/log/a.gz\n/var/log/b\\ c.gz\n/var/log/\\*.gz\n")), [
    "/var/log/a.gz",
    "/var/log/b c.gz",
    "/var/log/*.gz",
  ]);
  assert.ok("unseen" in parseExpansion(ran("/var/log/$'a\\nb'\n".replace("/var/log/", ""))));
  assert.ok("unseen" in parseExpansion(ran("/x\n", 1, "bad substitution")));
});

test("who looks: ids, umask and overflow ids, then the mount table", () => {
  const who = parseIdentity(
    ran("1001\n1001\n0022\n65534\n65534\n45 44 254:0 / / ro,nodev - ext4 /dev/vda rw\n"),
  );
  if ("unseen" in who) return assert.fail(who.unseen);
  assert.equal(who.umask, 0o022);
  assert.equal(who.overflowGid, 65534);
  assert.ok(parseMountInfo(who.rest));
  assert.ok("unseen" in parseIdentity(ran("1001\n")));
});

test("the jail's own mounts are the writable ones of a jailed view; the last mounted at a point wins", () => {
  const mounts = parseMountInfo(
    [
      "45 44 254:0 / / ro,nodev,relatime - ext4 /dev/vda rw",
      "60 45 0:6 / /dev ro,nodev - devtmpfs devtmpfs rw",
      "61 60 0:22 / /dev/shm rw,relatime - tmpfs tmpfs rw",
      "62 61 0:26 / /dev/shm ro,nodev - tmpfs tmpfs rw",
      "71 45 0:39 / /tmp rw,nosuid,nodev - tmpfs oikos-jail rw",
      "73 62 0:41 / /dev/shm rw,nosuid - tmpfs oikos-jail rw",
      "74 45 0:42 / /srv/my\\040data ro - ext4 /dev/vdb rw",
    ].join("\n"),
  );
  if (mounts === null) return assert.fail("no mounts");
  const jailed = { jailed: true, mounts };
  assert.equal(privateMountAt(jailed, "/tmp/x"), "/tmp");
  assert.equal(privateMountAt(jailed, "/dev/shm/x"), "/dev/shm");
  assert.equal(privateMountAt(jailed, "/etc/x"), null);
  assert.equal(privateMountAt(jailed, "/tmpx/y"), null, "a prefix of a name is not the directory");
  assert.equal(mountOf(mounts, "/srv/my data/f")?.point, "/srv/my data");
  assert.deepEqual(privateMountsUnder(jailed, "/"), ["/dev/shm", "/tmp"].sort().reverse().sort());
  assert.deepEqual(privateMountsUnder(jailed, "/var"), []);
  // Unjailed, the probes see what the command sees.
  assert.equal(privateMountAt({ jailed: false, mounts }, "/tmp/x"), null);
});
