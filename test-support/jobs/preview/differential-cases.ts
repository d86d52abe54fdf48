/**
 * The differential lab's cases (issue #37), generated per class of the issue: each a small world
 * built as root under fresh roots ($S under /var/lib; $T, $V, $M in the real /tmp, /var/tmp and
 * /dev/shm), a command line, and what the preview must at least be (`shown`: a control the preview
 * must still show, and correctly). Every case is judged by differential-oracle.ts against what the
 * command really did.
 */

export type Owner = "login" | "root";

export type WorldItem =
  | { file: string; text: string; mode?: number; owner?: Owner; group?: Owner }
  | { dir: string; mode?: number; owner?: Owner; group?: Owner }
  | { link: string; to: string }
  | { hardlink: string; of: string };

export interface DiffCase {
  cls: string;
  name: string;
  world: WorldItem[];
  command: string;
  expect?: "shown" | "not_previewed";
  /** Changed between a first preview and the run: the second preview's fingerprint must differ. */
  race?: WorldItem[];
  /** Files removed before the race items are made (a name swapped for a link). */
  raceRemoves?: string[];
}

/** Every case starts from this tree (owned by the login). */
export const BASE: WorldItem[] = [
  { dir: "$S/etc" },
  { file: "$S/etc/app.conf", text: "listen = 8080\nworkers = 4\n", mode: 0o644 },
  { file: "$S/etc/hosts", text: "127.0.0.1 localhost\n", mode: 0o644 },
  { dir: "$S/srv" },
  { file: "$S/srv/new.conf", text: "listen = 9090\n", mode: 0o644 },
  { file: "$S/srv/secret.key", text: "k=1\n", mode: 0o600 },
  { file: "$S/srv/run.sh", text: "#!/bin/sh\necho hi\n", mode: 0o755 },
  { dir: "$S/var/log" },
  { file: "$S/var/log/app.log", text: "started\nserving\n" },
  { file: "$S/var/log/old.log.gz", text: "zz\n" },
  { dir: "$S/home" },
  { file: "$S/home/notes.txt", text: "b\na\nc\n" },
];

const ROOT_TREE: WorldItem[] = [
  { dir: "$S/root", mode: 0o700, owner: "root", group: "root" },
  { file: "$S/root/secret.conf", text: "a=1\n", mode: 0o600, owner: "root", group: "root" },
  { dir: "$S/root/d", mode: 0o755, owner: "root", group: "root" },
  ...[1, 2, 3, 4].map((i) => ({
    file: `$S/root/d/f${i}`,
    text: "x".repeat(100 * i),
    owner: "root" as const,
    group: "root" as const,
  })),
];

function sudoCases(): DiffCase[] {
  const cases: DiffCase[] = [];
  const edits = [
    ["tee", "echo 'a=2' | sudo tee $FILE >/dev/null"],
    ["tee -a", "echo 'z=9' | sudo tee -a $FILE >/dev/null"],
    ["sed -i", "sudo sed -i 's/a/b/' $FILE"],
    ["cp", "sudo cp $S/etc/hosts $FILE"],
    ["install", "sudo install -m 0600 $S/etc/hosts $FILE"],
  ] as const;
  for (const [op, template] of edits) {
    for (const [where, file] of [
      ["a root-only file", "$S/root/secret.conf"],
      ["a new file in a root-only directory", "$S/root/fresh.conf"],
    ] as const) {
      if (op === "sed -i" && where.startsWith("a new")) continue;
      cases.push({
        cls: "sudo",
        name: `sudo ${op} onto ${where}`,
        world: ROOT_TREE,
        command: template.replace("$FILE", file),
        expect: "shown",
      });
    }
  }
  cases.push(
    {
      cls: "sudo",
      name: "sudo rm -rf of a root-only directory",
      world: ROOT_TREE,
      command: "sudo rm -rf $S/root/d",
      expect: "shown",
    },
    {
      cls: "sudo",
      name: "sudo rm of a root-only file",
      world: ROOT_TREE,
      command: "sudo rm $S/root/secret.conf",
      expect: "shown",
    },
    // The glob is expanded by the login's shell, which cannot read the directory: rm gets it literally.
    {
      cls: "sudo",
      name: "sudo rm with a glob the login cannot expand",
      world: ROOT_TREE,
      command: "sudo rm -f $S/root/*.conf",
      expect: "shown",
    },
    {
      cls: "sudo",
      name: "tee without sudo into a root-only directory",
      world: ROOT_TREE,
      command: "echo x | tee $S/root/secret.conf",
      expect: "not_previewed",
    },
    {
      cls: "sudo",
      name: "sudo echo with the redirection done by the login",
      world: ROOT_TREE,
      command: "sudo echo x > $S/root/secret.conf",
    },
  );
  return cases;
}

const TMP_WORLD: WorldItem[] = [
  { file: "$T/f.conf", text: "a=1\n" },
  { dir: "$T/cache" },
  { file: "$T/cache/one", text: "1111\n" },
  { file: "$T/cache/two", text: "2222\n" },
  { file: "$T/x.log", text: "log\n" },
  { file: "$V/f.conf", text: "a=1\n" },
  { file: "$M/f.conf", text: "a=1\n" },
  { link: "$S/etc/tmplink.conf", to: "$T/f.conf" },
  { link: "$S/cache", to: "$T/cache" },
];

function tmpCases(): DiffCase[] {
  const lines: [string, string][] = [
    ["overwrite in /tmp", "echo 'a=2' > $T/f.conf"],
    ["append in /var/tmp", "echo 'b=2' >> $V/f.conf"],
    ["sed -i in /dev/shm", "sed -i s/a/b/ $M/f.conf"],
    ["cp into /tmp", "cp $S/etc/hosts $T/f.conf"],
    ["rm -rf in /tmp", "rm -rf $T/cache"],
    ["rm with a glob in /tmp", "rm -f $T/*.log"],
    ["a link into /tmp, written", "echo 'a=3' > $S/etc/tmplink.conf"],
    ["a link to a /tmp directory, a file below it edited", "sed -i s/1/9/ $S/cache/one"],
    ["tee through a link into /tmp", "echo z | tee -a $S/etc/tmplink.conf"],
  ];
  const cases: DiffCase[] = lines.map(([name, command]) => ({
    cls: "private tmp",
    name,
    world: TMP_WORLD,
    command,
  }));
  // The link itself is in the scratch tree: rm deletes the link, not what it points to.
  cases.push({
    cls: "private tmp",
    name: "rm of the link to a /tmp directory (the link only)",
    world: TMP_WORLD,
    command: "rm $S/cache",
    expect: "shown",
  });
  return cases;
}

function failureCases(): DiffCase[] {
  const locked: WorldItem[] = [
    { dir: "$S/data" },
    { file: "$S/data/a", text: "aaaa\n" },
    { file: "$S/data/b", text: "bbbb\n" },
    { dir: "$S/data/locked", mode: 0o700, owner: "root", group: "root" },
    { file: "$S/data/locked/c", text: "cccc\n", owner: "root", group: "root" },
    { file: "$S/etc/shadowish", text: "a=1\n", mode: 0o600, owner: "root", group: "root" },
    { link: "$S/etc/dangling.conf", to: "$S/etc/missing.conf" },
  ];
  return [
    {
      cls: "probe failures",
      name: "rm -rf of a tree with a directory the login cannot read",
      world: locked,
      command: "rm -rf $S/data",
      expect: "not_previewed",
    },
    {
      cls: "probe failures",
      name: "sed -i of a file the login cannot read",
      world: locked,
      command: "sed -i s/a/b/ $S/etc/shadowish",
      expect: "not_previewed",
    },
    {
      cls: "probe failures",
      name: "append to a file the login cannot open",
      world: locked,
      command: "echo x >> $S/etc/shadowish",
    },
    {
      cls: "probe failures",
      name: "rm -f of a name that does not exist",
      world: locked,
      command: "rm -f $S/etc/nope",
      expect: "shown",
    },
    {
      cls: "probe failures",
      name: "rm -rf below a directory that does not exist",
      world: locked,
      command: "rm -rf $S/nope/deeper",
    },
    {
      cls: "probe failures",
      name: "write through a dangling link (creates its target)",
      world: locked,
      command: "echo x > $S/etc/dangling.conf",
      expect: "not_previewed",
    },
    {
      cls: "probe failures",
      name: "a producer that fails still empties the file",
      world: locked,
      command: "cat $S/etc/nope > $S/etc/app.conf",
      expect: "not_previewed",
    },
    {
      cls: "probe failures",
      name: "a producer whose output differs each run",
      world: locked,
      command: "date +%N > $S/etc/app.conf",
      expect: "not_previewed",
    },
    {
      cls: "probe failures",
      name: "rm -r of a readable tree (control)",
      world: locked,
      command: "rm -r $S/var/log",
      expect: "shown",
    },
  ];
}

const NAMES_WORLD: WorldItem[] = [
  { link: "$S/conf", to: "$S/etc" },
  { hardlink: "$S/etc/app.hard", of: "$S/etc/app.conf" },
  { link: "$S/etc/link.conf", to: "app.conf" },
  { dir: "$S/srv/a/b" },
  { link: "$S/deep", to: "$S/srv/a/b" },
  { dir: "$S/old" },
  { hardlink: "$S/old/hosts.keep", of: "$S/etc/hosts" },
  { file: "$S/old/junk", text: "junk\n" },
];

function nameCases(): DiffCase[] {
  const c = (name: string, command: string, expect?: DiffCase["expect"]): DiffCase => ({
    cls: "one file, two names",
    name,
    world: NAMES_WORLD,
    command,
    ...(expect ? { expect } : {}),
  });
  return [
    c(
      "sed -i on one file named through a directory link and directly",
      "sed -i s/8080/9090/ $S/conf/app.conf $S/etc/app.conf",
      "not_previewed",
    ),
    c("sed -i through a directory link", "sed -i s/8080/9090/ $S/conf/app.conf", "shown"),
    c("append through a directory link", "echo 'x = 1' >> $S/conf/app.conf", "shown"),
    c(
      "sed -i on a hard link (the other name keeps the old text)",
      "sed -i s/8080/9090/ $S/etc/app.hard",
      "shown",
    ),
    c("append to a hard link (the other name changes too)", "echo 'w = 2' >> $S/etc/app.hard", "shown"),
    c(
      "sed -i on both names of a hard-linked file",
      "sed -i s/8080/9090/ $S/etc/app.conf $S/etc/app.hard",
      "not_previewed",
    ),
    c(
      "sed -i --follow-symlinks on a link",
      "sed -i --follow-symlinks s/8080/9090/ $S/etc/link.conf",
      "shown",
    ),
    c("sed -i on a link (the link is replaced)", "sed -i s/8080/9090/ $S/etc/link.conf", "shown"),
    c("`..` after a directory link", "echo x > $S/deep/../f.conf", "shown"),
    c(
      "`..` through a directory link back to the file",
      "sed -i s/8080/9090/ $S/conf/../etc/app.conf",
      "shown",
    ),
    c("cp onto a link writes through it", "cp $S/etc/hosts $S/etc/link.conf", "shown"),
    c("mv onto a link replaces the link", "mv $S/srv/new.conf $S/etc/link.conf", "shown"),
    c("rm of a hard link (the other name loses a link)", "rm $S/etc/app.hard", "shown"),
    c("rm -rf of a directory holding a hard link of a file outside", "rm -rf $S/old", "shown"),
    c("tee to two names of one file", "echo x | tee $S/etc/app.conf $S/conf/app.conf", "not_previewed"),
    c(
      "a producer that reads, through a link, the file its redirection empties",
      "sort $S/conf/app.conf > $S/etc/app.conf",
      "not_previewed",
    ),
    c("cp of a file onto another name of itself", "cp $S/etc/app.hard $S/etc/app.conf", "not_previewed"),
  ];
}

function sideFileCases(): DiffCase[] {
  const numbered: WorldItem[] = [
    { file: "$S/etc/app.conf.~1~", text: "old one\n" },
    { file: "$S/etc/app.conf.~3~", text: "old three\n" },
  ];
  const c = (
    name: string,
    command: string,
    world: WorldItem[] = [],
    expect: DiffCase["expect"] = "shown",
  ): DiffCase => ({
    cls: "side files",
    name,
    world,
    command,
    ...(expect ? { expect } : {}),
  });
  return [
    c("sed -i.bak", "sed -i.bak s/8080/9090/ $S/etc/app.conf"),
    c("sed -in (suffix n, and no -n)", "sed -in s/8080/9090/ $S/etc/app.conf"),
    c("sed -ni (quiet, no suffix)", "sed -ni '/listen/p' $S/etc/app.conf"),
    c("sed --in-place=.orig on two files", "sed --in-place=.orig s/a/b/ $S/etc/app.conf $S/home/notes.txt"),
    c("sed -i~ with an old backup there", "sed -i~ s/8080/9090/ $S/etc/app.conf", [
      { file: "$S/etc/app.conf~", text: "older\n" },
    ]),
    c("cp -b", "cp -b $S/etc/hosts $S/etc/app.conf"),
    c(
      "cp --backup=numbered with numbered backups there",
      "cp --backup=numbered $S/etc/hosts $S/etc/app.conf",
      numbered,
    ),
    c("cp -b with numbered backups there (existing)", "cp -b $S/etc/hosts $S/etc/app.conf", numbered),
    c("cp -b -S .old", "cp -b -S .old $S/etc/hosts $S/etc/app.conf"),
    c("cp --backup=off (no backup)", "cp --backup=off $S/etc/hosts $S/etc/app.conf"),
    c("mv -b", "mv -b $S/srv/new.conf $S/etc/app.conf"),
    c("mv --backup=t --suffix=.x", "mv --backup=t --suffix=.x $S/srv/new.conf $S/etc/app.conf"),
    c("install -b -m 0640", "install -b -m 0640 $S/etc/hosts $S/etc/app.conf"),
    c("sed -i with a backup pattern", "sed -i'bak_*' s/8080/9090/ $S/etc/app.conf", [], "not_previewed"),
    c(
      "cp -b onto a link",
      "cp -b $S/etc/hosts $S/etc/link.conf",
      [{ link: "$S/etc/link.conf", to: "app.conf" }],
      "not_previewed",
    ),
  ];
}

function optionCases(): DiffCase[] {
  const world: WorldItem[] = [
    { file: "$S/etc/ro.conf", text: "ro\n", mode: 0o444 },
    { dir: "$S/shared", mode: 0o2775, group: "root" },
    { link: "$S/etc/link.conf", to: "app.conf" },
    { file: "$S/etc/private.conf", text: "p=1\n", mode: 0o640 },
  ];
  const c = (name: string, command: string, expect: DiffCase["expect"] = "shown"): DiffCase => ({
    cls: "dropped options",
    name,
    world,
    command,
    ...(expect ? { expect } : {}),
  });
  return [
    c("cp --preserve=mode changes the mode", "cp --preserve=mode $S/srv/secret.key $S/etc/app.conf"),
    c("cp -p", "cp -p $S/srv/secret.key $S/etc/app.conf"),
    c("cp onto a file keeps its mode", "cp $S/srv/secret.key $S/etc/app.conf"),
    c("cp to a new file takes the source's mode less the umask", "cp $S/srv/run.sh $S/etc/run.sh"),
    c("install with no mode gives 0755", "install $S/etc/hosts $S/etc/new.bin"),
    c("install -m 0600", "install -m 0600 $S/etc/hosts $S/etc/app.conf"),
    c("sudo install -o 0 -g 0 -m 0640", "sudo install -o 0 -g 0 -m 0640 $S/etc/hosts $S/etc/app.conf"),
    c("sed -i keeps a 0640 mode", "sed -i s/p/q/ $S/etc/private.conf"),
    c("mv takes the source's mode", "mv $S/srv/secret.key $S/etc/app.conf"),
    c("a new file in a set-group-ID directory takes its group", "echo x > $S/shared/f"),
    c("cp --remove-destination replaces a link", "cp --remove-destination $S/etc/hosts $S/etc/link.conf"),
    c("cp onto a read-only file fails", "cp $S/etc/hosts $S/etc/ro.conf", "not_previewed"),
    c("cp -f onto a read-only file replaces it", "cp -f $S/etc/hosts $S/etc/ro.conf", "not_previewed"),
    c("cp --preserve=xattr", "cp --preserve=xattr $S/etc/hosts $S/etc/app.conf", "not_previewed"),
  ];
}

function orderCases(): DiffCase[] {
  const world: WorldItem[] = [{ link: "$S/conf", to: "$S/etc" }];
  const c = (name: string, command: string, expect?: DiffCase["expect"]): DiffCase => ({
    cls: "statements in order",
    name,
    world,
    command,
    ...(expect ? { expect } : {}),
  });
  return [
    c(
      "cp of a file an earlier statement writes",
      "echo 'listen = 1' > $S/srv/new.conf && cp $S/srv/new.conf $S/etc/app.conf",
    ),
    // `a && b > f` parses with the redirection on the whole list: `;` and tee keep them apart.
    c("a link made first, then written through", "ln -sf $S/etc/hosts $S/etc/l2; echo x >> $S/etc/l2"),
    c("a link made first, then tee through it", "ln -sf $S/etc/hosts $S/etc/l3 && echo x | tee -a $S/etc/l3"),
    c("a directory made first, then a file in it", "mkdir -p $S/newdir; echo x > $S/newdir/f"),
    c("a directory deleted first, then written in", "rm -rf $S/var; echo x > $S/var/log/app.log"),
    c("a directory deleted first, then tee below it", "rm -rf $S/var && echo x | tee $S/var/log/app.log"),
    c(
      "a file moved away first, then written through a link to it",
      "mv $S/etc/app.conf $S/srv/moved.conf; echo x >> $S/conf/app.conf",
    ),
    c(
      "a mode changed first, then the file copied",
      "chmod 600 $S/etc/hosts && cp $S/etc/hosts $S/etc/app.conf",
    ),
    c(
      "a file written, then read by the next statement",
      "echo x > $S/etc/app.conf; cat $S/etc/app.conf > $S/home/copy.conf",
    ),
    c(
      "a file written, then edited through a directory link",
      "cp $S/etc/hosts $S/etc/x.conf && sed -i s/1/9/ $S/conf/x.conf",
    ),
    c(
      "two independent edits (control)",
      "sed -i s/8080/9090/ $S/etc/app.conf && sed -i s/b/c/ $S/home/notes.txt",
      "shown",
    ),
    c(
      "an edit, then a read-only command (control)",
      "sed -i s/8080/9090/ $S/etc/app.conf && cat $S/etc/app.conf",
      "shown",
    ),
  ];
}

function cardCases(): DiffCase[] {
  const big = Array.from({ length: 400 }, (_, i) => `option_${i} = value ${i}`).join("\n");
  return [
    {
      cls: "card length",
      name: "a long diff, then rm -rf, then a command with no preview",
      world: [{ file: "$S/etc/big.conf", text: `${big}\n` }],
      command: "sed -i 's/^/# /' $S/etc/big.conf; rm -rf $S/var; touch $S/home/t",
    },
    {
      cls: "card length",
      name: "a long diff, then rm -rf",
      world: [{ file: "$S/etc/big.conf", text: `${big}\n` }],
      command: "sed -i 's/value/v/' $S/etc/big.conf && rm -rf $S/var",
      expect: "shown",
    },
  ];
}

function raceCases(): DiffCase[] {
  const world: WorldItem[] = [{ file: "$S/etc/twin.conf", text: "listen = 8080\nworkers = 4\n" }];
  const cases: DiffCase[] = [
    {
      cls: "link swap race",
      name: "the file swapped for a link to a file with the same content",
      world,
      command: "echo 'extra = 1' >> $S/etc/app.conf",
      raceRemoves: ["$S/etc/app.conf"],
      race: [{ link: "$S/etc/app.conf", to: "twin.conf" }],
      expect: "shown",
    },
    {
      cls: "link swap race",
      name: "the file swapped for a hard link to a file with the same content",
      world,
      command: "sed -i s/8080/9090/ $S/etc/app.conf",
      raceRemoves: ["$S/etc/app.conf"],
      race: [{ hardlink: "$S/etc/app.conf", of: "$S/etc/twin.conf" }],
      expect: "shown",
    },
    {
      cls: "link swap race",
      name: "a directory on the path swapped for a link",
      world: [{ dir: "$S/etc2" }, { file: "$S/etc2/app.conf", text: "listen = 8080\nworkers = 4\n" }],
      command: "sed -i s/8080/9090/ $S/conf/app.conf",
      raceRemoves: ["$S/conf"],
      race: [{ link: "$S/conf", to: "$S/etc2" }],
      expect: "shown",
    },
  ];
  return cases.map((c) =>
    c.name.startsWith("a directory") ? { ...c, world: [...c.world, { link: "$S/conf", to: "$S/etc" }] } : c,
  );
}

export function differentialCases(): DiffCase[] {
  return [
    ...sudoCases(),
    ...tmpCases(),
    ...failureCases(),
    ...nameCases(),
    ...sideFileCases(),
    ...optionCases(),
    ...orderCases(),
    ...cardCases(),
    ...raceCases(),
  ];
}
