import assert from "node:assert/strict";
import { before, test } from "node:test";
import type { BashParser } from "./bash-parser.ts";
import { loadBashParser } from "./bash-parser.ts";
import {
  type DatasetSnapshotFacts,
  type DatasetTouch,
  datasetsOfPaths,
  datasetTouch,
  decideDatasetSnapshot,
  isDatasetName,
  MAX_SNAPSHOT_DATASETS,
  parseZfsMounts,
  type ZfsMount,
} from "./dataset-snapshot.ts";
import type { RunnableRisk } from "./decide-run.ts";
import { SNAPSHOT_BEFORE_MODES, type SnapshotBeforeMode } from "./snapshot-before.ts";

let parser: BashParser;
before(async () => {
  parser = await loadBashParser();
});
const touch = (command: string) => datasetTouch(parser.parse(command), (source) => parser.parse(source));

const mounts: ZfsMount[] = [
  { dataset: "rpool/ROOT/pve-1", mountpoint: "/" },
  { dataset: "tank", mountpoint: "/tank" },
  { dataset: "tank/data", mountpoint: "/tank/data" },
  { dataset: "tank/data/photos", mountpoint: "/tank/data/photos" },
  { dataset: "tank/media", mountpoint: "/srv/media" },
];

test("paths: arguments, redirections, key=/path and loop lists; expansions and globs cut to their directory", () => {
  const cases: [string, string[]][] = [
    ["rm -rf /tank/data/old", ["/tank/data/old"]],
    ["sudo rm -rf '/tank/data/old dir'", ["/tank/data/old dir"]],
    ['echo x > "/srv/media/list.txt"', ["/srv/media/list.txt"]],
    ["dd if=/dev/zero of=/tank/vm.img bs=1M count=1", ["/tank/vm.img"]],
    ["rsync -a --delete --target=/tank/backup src/", ["/tank/backup"]],
    ["rm -rf /tank/data/$NAME/cache", ["/tank/data"]],
    ["rm /tank/data/*.tmp /tank/da*", ["/tank", "/tank/data"]],
    ["for f in /tank/data/a /srv/media/b; do rm -f $f; done", ["/srv/media/b", "/tank/data/a"]],
    ["find /tank/data/../media -delete", ["/tank/media"]],
    ["cd /tank/data && rm -rf x", ["/tank/data"]],
    ["/usr/bin/rm -rf /tank/x", ["/tank/x"]],
    ["echo 1 > /proc/sys/vm/drop_caches; rm /dev/shm/x; rm -rf /run/lock/y; cat /sys/x > /dev/null", []],
    ["rm -rf relative/path $HOME/x", []],
    ["systemctl restart nginx", []],
    [
      "sudo bash -c 'rm -rf /tank/data/old && echo done > /srv/media/log'",
      ["/srv/media/log", "/tank/data/old"],
    ],
    ["sh -lc \"sh -c 'rm /tank/deep'\"", ["/tank/deep"]],
    ['bash -c "$SCRIPT"', []],
  ];
  for (const [command, paths] of cases) assert.deepEqual(touch(command).paths, paths, command);
});

test("zfs destroy / rollback / receive -F are found through wrappers, with the dataset they name", () => {
  const cases: [string, DatasetTouch["zfsVerbs"]][] = [
    ["zfs destroy tank/old", [{ verb: "destroy", dataset: "tank/old" }]],
    ["sudo zfs destroy -r tank/data@autosnap_2023", [{ verb: "destroy", dataset: "tank/data" }]],
    ["zfs rollback -r tank/data@pre-upgrade", [{ verb: "rollback", dataset: "tank/data" }]],
    ["ssh-keyscan x; /sbin/zfs rollback tank/data@a", [{ verb: "rollback", dataset: "tank/data" }]],
    ["zfs send tank/a@1 | zfs receive -F backup/a", [{ verb: "receive", dataset: "backup/a" }]],
    ["zfs recv -uF backup/a < /tank/stream", [{ verb: "receive", dataset: "backup/a" }]],
    ["zfs receive backup/a < /tank/stream", []],
    ["zfs set compression=zstd tank/data", []],
    ["zfs snapshot tank/data@x", []],
    ["sudo sh -c 'zfs rollback -r tank/data@a'", [{ verb: "rollback", dataset: "tank/data" }]],
  ];
  for (const [command, verbs] of cases) assert.deepEqual(touch(command).zfsVerbs, verbs, command);
});

test("a path maps to the dataset mounted deepest above it, and to every dataset mounted below it", () => {
  assert.deepEqual(datasetsOfPaths(["/tank/data/old"], mounts), ["tank/data"]);
  assert.deepEqual(datasetsOfPaths(["/tank/data/photos/2024"], mounts), ["tank/data/photos"]);
  assert.deepEqual(datasetsOfPaths(["/tank/data"], mounts), ["tank/data", "tank/data/photos"]);
  assert.deepEqual(datasetsOfPaths(["/tank"], mounts), ["tank", "tank/data", "tank/data/photos"]);
  assert.deepEqual(datasetsOfPaths(["/srv/media/x", "/etc/hosts"], mounts), [
    "rpool/ROOT/pve-1",
    "tank/media",
  ]);
  assert.deepEqual(datasetsOfPaths(["/tankfarm/x"], mounts.slice(1)), []);
  assert.deepEqual(datasetsOfPaths(["/etc/hosts"], mounts.slice(1)), []);
});

test("zfs list output: mounted filesystems with a real mountpoint only", () => {
  const stdout = [
    "rpool\t/rpool\tyes",
    "rpool/ROOT\tnone\tno",
    "rpool/ROOT/pve-1\t/\tyes",
    "tank/legacy\tlegacy\tno",
    "tank/off\t/tank/off\tno",
    "tank/data/\t/x\tyes",
    "tank/ok\t/tank//ok/\tyes",
    "",
  ].join("\n");
  assert.deepEqual(parseZfsMounts(stdout), [
    { dataset: "rpool", mountpoint: "/rpool" },
    { dataset: "rpool/ROOT/pve-1", mountpoint: "/" },
    { dataset: "tank/ok", mountpoint: "/tank/ok" },
  ]);
  assert.equal(isDatasetName("tank/data@snap"), false);
  assert.equal(isDatasetName("tank/da ta"), false);
  assert.equal(isDatasetName("-tank"), false);
});

const facts = (over: Partial<DatasetSnapshotFacts>): DatasetSnapshotFacts => ({
  risk: "destructive",
  mode: "destructive",
  transport: "ssh",
  touch: { zfsVerbs: [], paths: ["/tank/data/old"] },
  mounts,
  ...over,
});

test("every risk × mode × transport: read-only and guests never; the mode gates the rest", () => {
  const risks: RunnableRisk[] = ["read_only", "config_mutation", "destructive"];
  for (const risk of risks)
    for (const mode of SNAPSHOT_BEFORE_MODES)
      for (const transport of ["ssh", "local", "pct-exec", "qm-guest-exec"]) {
        const decision = decideDatasetSnapshot(facts({ risk, mode, transport }));
        const label = `${risk} ${mode} ${transport}`;
        if (risk === "read_only" || transport === "pct-exec" || transport === "qm-guest-exec") {
          assert.deepEqual(decision, { kind: "not_applicable" }, label);
        } else if (mode === "off" || (mode === "destructive" && risk === "config_mutation")) {
          assert.equal(decision.kind === "skip" && decision.code, "disabled", label);
        } else {
          assert.deepEqual(decision, { kind: "take", datasets: ["tank/data"] }, label);
        }
      }
});

test("ZFS's own destructive verbs are never snapshotted: said why, or disabled", () => {
  for (const verb of ["destroy", "rollback", "receive"] as const) {
    const decision = decideDatasetSnapshot(
      facts({ touch: { zfsVerbs: [{ verb, dataset: "tank/data" }], paths: ["/tank/data/x"] } }),
    );
    assert.equal(decision.kind === "skip" && decision.code, "cannot_protect", verb);
    assert.match(decision.kind === "skip" ? decision.reason : "", /tank\/data/);
    const off = decideDatasetSnapshot(
      facts({ mode: "off", touch: { zfsVerbs: [{ verb, dataset: "tank/data" }], paths: [] } }),
    );
    assert.equal(off.kind === "skip" && off.code, "disabled");
  }
});

test("the host is asked for its datasets only when a path could be on one; no zfs or no dataset: nothing to say", () => {
  const modes: SnapshotBeforeMode[] = ["destructive", "mutating"];
  for (const mode of modes) {
    assert.deepEqual(decideDatasetSnapshot(facts({ mode, mounts: "not_read" })), { kind: "read_mounts" });
    assert.deepEqual(
      decideDatasetSnapshot(facts({ mode, mounts: "not_read", touch: { zfsVerbs: [], paths: [] } })),
      { kind: "not_applicable" },
    );
    assert.deepEqual(decideDatasetSnapshot(facts({ mode, mounts: null })), { kind: "not_applicable" });
    assert.deepEqual(
      decideDatasetSnapshot(
        facts({ mode, touch: { zfsVerbs: [], paths: ["/etc/x"] }, mounts: mounts.slice(1) }),
      ),
      { kind: "not_applicable" },
    );
  }
});

test("more datasets than one snapshot should take: said, not taken", () => {
  const many: ZfsMount[] = Array.from({ length: MAX_SNAPSHOT_DATASETS + 1 }, (_, i) => ({
    dataset: `tank/d${i}`,
    mountpoint: `/tank/d${i}`,
  }));
  const decision = decideDatasetSnapshot(facts({ touch: { zfsVerbs: [], paths: ["/tank"] }, mounts: many }));
  assert.equal(decision.kind === "skip" && decision.code, "too_many_datasets");
  const fits = decideDatasetSnapshot(
    facts({ touch: { zfsVerbs: [], paths: ["/tank"] }, mounts: many.slice(0, MAX_SNAPSHOT_DATASETS) }),
  );
  assert.equal(fits.kind === "take" && fits.datasets.length, MAX_SNAPSHOT_DATASETS);
});
