import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "../classify.ts";
import { grantKey } from "../jail-grant.ts";
import { INSIDE_WHEN_SHARED, MOUNT_TABLE, NET_ADMIN } from "./tools/grant-helpers.ts";

const classifier = await loadClassifier();
/** The grants of a command the proof must let run with nobody asked. */
const keys = (command: string) => {
  const result = classifier.classify(command, "host");
  assert.equal(result.risk, "read_only", `${command}: ${result.reasons[0]}`);
  return (result.grants ?? []).map(grantKey);
};
const outside = (spec: string) => [`unjailed:${MOUNT_TABLE}:${spec}`];

test("df and findmnt read the machine's mount table outside the jail, in every form that only reads it", () => {
  for (const command of [
    "df",
    "df -h",
    "df -H",
    "df -i",
    "df -k",
    "df -l",
    "df -P",
    "df -T",
    "df -hT",
    "df -hiklPT",
    "df --human-readable",
    "df --inodes",
    "df --print-type",
    "df --local",
    "df --si",
    "df --total",
    "df -x tmpfs",
    "df -hx tmpfs",
    "df -xtmpfs",
    "df -t ext4",
    "df -ht ext4 -x tmpfs",
    "df -B1",
    "df -B 1M",
    "df --type ext4",
    "df --type=ext4",
    "df --exclude-type tmpfs",
    "df --block-size=1K",
    "df --block-size 1K",
    "df --output=source,fstype,size,used,avail,pcent,target",
    "timeout 10 df -h",
    "df -h | grep -v tmpfs",
    "df -h | sort -k5 -h | tail -n 5",
  ])
    assert.deepEqual(keys(command), outside("df"), command);
  for (const command of [
    "findmnt",
    "findmnt -A",
    "findmnt -b",
    "findmnt -f",
    "findmnt -k",
    "findmnt -l",
    "findmnt -m",
    "findmnt -n",
    "findmnt -r",
    "findmnt -u",
    "findmnt -J",
    "findmnt -lnru",
    "findmnt --json",
    "findmnt --list",
    "findmnt --noheadings",
    "findmnt --real",
    "findmnt --pseudo",
    "findmnt -t ext4,xfs",
    "findmnt -t nfs4",
    "findmnt --types=zfs",
    "findmnt --types zfs",
    "findmnt -O ro",
    "findmnt -o TARGET,SOURCE,FSTYPE,OPTIONS,VFS-OPTIONS,FS-OPTIONS,FSROOT,MAJ:MIN,ID,PARENT,PROPAGATION,OPT-FIELDS,TID",
    "findmnt -o +PROPAGATION",
    "findmnt -no target,source",
    "findmnt --output=TARGET",
    "findmnt --output TARGET",
    "findmnt -J | jq -r '.filesystems[].target'",
  ])
    assert.deepEqual(keys(command), outside("findmnt"), command);
});

test("a df or findmnt that could do more than read the table runs inside the jail, with no grant", () => {
  for (const command of [
    // df opens each operand (a watchdog, a tape that rewinds on close, a FIFO that blocks)
    "df -h /",
    "df -h /srv /var",
    "df -hT /srv",
    "df -h -- /",
    "df --output source",
    "df -h $dir",
    "df -h *",
    // -a asks statfs of autofs triggers, which mounts them
    "df -a",
    "df -ha",
    "df -ah",
    "df --all",
    // a word known only at run time may be an operand or -a
    "df $opts",
    "df -h $(printf %s -a)",
    // findmnt: path and tag lookups, fstab, another file or process, statfs, probed devices
    "findmnt /",
    "findmnt LABEL=data",
    "findmnt -S LABEL=data",
    "findmnt -T /var/lib",
    "findmnt --target /var/lib",
    "findmnt -M /srv",
    "findmnt --mountpoint /srv",
    "findmnt --source UUID=0a1b",
    "findmnt -c",
    "findmnt -s",
    "findmnt -F /etc/fstab",
    "findmnt -N 1",
    "findmnt -D",
    "findmnt -lD",
    "findmnt -o TARGET,SIZE",
    "findmnt -o +USE%",
    "findmnt -o TARGET,AVAIL",
    "findmnt -o TARGET,USED",
    "findmnt -o LABEL",
    "findmnt -o UUID",
    "findmnt -o PARTLABEL",
    "findmnt -o PARTUUID",
    "findmnt -o SOURCES",
    "findmnt -o FREQ,PASSNO",
    "findmnt --output=target,size",
    "findmnt -o $cols",
    "findmnt -t $type",
  ])
    assert.deepEqual(keys(command), [], command);
  // a device it names is granted to the jail, read-only, as for every tool
  assert.deepEqual(keys("findmnt /dev/sda1"), ["device:/dev/sda1"]);
  assert.deepEqual(keys("findmnt -S /dev/sda1"), ["device:/dev/sda1"]);
  // what the proof does not prove at all stays unproven (no grant changes that)
  for (const command of ["df --sync", "findmnt -p", "findmnt --poll", "findmnt -x", "findmnt -e"])
    assert.notEqual(classifier.classify(command, "host").risk, "read_only", command);
});

test("ethtool runs inside the jail, with or without an option (outside, `ethtool dummy` could load a module)", () => {
  assert.deepEqual(keys("ethtool eth0"), ["netlink"]);
  assert.deepEqual(keys("ethtool enp3s0 | grep -i speed"), ["netlink"]);
  for (const flag of ["-S", "-i", "-k", "-g", "-a", "-c", "-l", "-m", "-T", "-P", "--show-eee", "--json"])
    assert.deepEqual(keys(`ethtool ${flag} eth0`), ["netlink"], flag);
  assert.notEqual(classifier.classify("ethtool $nic", "host").risk, "read_only");
});

test("a run outside the jail that another piece would share goes back inside, where its spec allows it", () => {
  assert.deepEqual([...INSIDE_WHEN_SHARED.keys()].sort(), ["df", "findmnt"]);
  // alone, with text filters, or with a tool that reads the same outside: outside
  assert.deepEqual(keys("df -h; findmnt -t ext4"), [...outside("df"), ...outside("findmnt")]);
  // with another piece: inside, with what the tool needs there
  assert.deepEqual(keys("uptime; df -h"), []);
  assert.deepEqual(keys("sh -c 'uptime; df -h'"), []);
  assert.deepEqual(keys("df -h && free -m"), []);
  assert.deepEqual(keys("watch df -h"), []);
  assert.deepEqual(keys("lsblk; findmnt"), []);
  assert.deepEqual(keys("zfs list; df -h"), ["zfs"]);
  assert.deepEqual(keys("ethtool eth0; ip -br link"), ["netlink"]);
  assert.deepEqual(keys("findmnt; ip -br link"), ["netlink"]);
  // a tool that cannot read inside the jail still asks, with the way to split it
  for (const command of [
    "dmesg; df -h",
    "ss -tlnp; findmnt",
    "df -h; nft list ruleset",
    "findmnt; lsof -nP -i :22",
  ]) {
    const result = classifier.classify(command, "host");
    assert.notEqual(result.risk, "read_only", command);
    assert.match(result.reasons.join(" "), /run .* on its own/, command);
  }
});

test("sudo around a listing outside the jail asks: there it would really authenticate and log", () => {
  for (const command of ["sudo df -h", "sudo findmnt"])
    assert.notEqual(classifier.classify(command, "host").risk, "read_only", command);
});
