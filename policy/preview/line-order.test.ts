import assert from "node:assert/strict";
import { test } from "node:test";
import { composePreviewText } from "./compose-text.ts";
import { dependentParts, type OrderedPart } from "./line-order.ts";
import { backupName, readControl } from "./rules/backup-name.ts";

const file = (
  statement: number,
  writes: string[],
  reads: string[] = [],
  inodes: string[] = [],
): OrderedPart => ({
  statement,
  command: `cmd${statement}`,
  kind: "file_diff",
  touches: { writes, reads, inodes },
});
const service = (statement: number): OrderedPart => ({
  statement,
  command: `svc${statement}`,
  kind: "service",
  touches: null,
});

test("a later part is shown only when nothing earlier in the line changes what it acts on", () => {
  // Independent files: both shown.
  assert.deepEqual(dependentParts([file(0, ["/etc/a"]), file(1, ["/etc/b"])], []), [null, null]);
  // The later one reads what the earlier writes; or writes below a directory the earlier removes.
  assert.match(
    dependentParts([file(0, ["/srv/new"]), file(1, ["/etc/a"], ["/srv/new"])], [])[1] ?? "",
    /earlier in the line/,
  );
  assert.match(
    dependentParts([file(0, ["/var"]), file(1, ["/var/log/x"])], [])[1] ?? "",
    /earlier in the line/,
  );
  // Another name of the same file (a hard link) is the same file.
  assert.match(
    dependentParts([file(0, ["/etc/a"], [], ["1:9"]), file(1, ["/etc/h"], [], ["1:9"])], [])[1] ?? "",
    /the file 1:9/,
  );
  // After a command oikos does not preview, nothing later is shown: its effect is unknown.
  assert.match(
    dependentParts([file(1, ["/etc/b"])], [{ statement: 0, command: "ln -sf /x /etc/b" }])[0] ?? "",
    /runs after `ln -sf/,
  );
  // A service after file edits is shown, unless they wrote its unit files.
  assert.deepEqual(dependentParts([file(0, ["/etc/nginx/nginx.conf"]), service(1)], []), [null, null]);
  assert.match(
    dependentParts([file(0, ["/etc/systemd/system/x.service"]), service(1)], [])[1] ?? "",
    /systemd/,
  );
  // Anything after a part with no known file effect (a restart, an install) is not shown.
  assert.match(dependentParts([service(0), file(1, ["/etc/a"])], [])[1] ?? "", /runs after `svc0`/);
  // A part not shown is an unknown effect for the parts after it.
  const chain = dependentParts(
    [file(0, ["/etc/a"]), file(1, ["/etc/b"], ["/etc/a"]), file(2, ["/etc/c"])],
    [],
  );
  assert.equal(chain[1] !== null && chain[2] !== null, true);
});

test("one command acting twice on one file shows none of its parts", () => {
  const out = dependentParts([file(0, ["/etc/a"]), file(0, ["/etc/a"]), file(1, ["/etc/z"])], []);
  assert.match(out[0] ?? "", /more than once/);
  assert.match(out[1] ?? "", /more than once/);
  assert.notEqual(out[2], null, "and what follows it is not shown either");
});

const part = (statement: number, text: string, summary: string) => ({
  kind: "file_diff" as const,
  ruleId: "file.sed_in_place",
  command: `cmd ${statement}`,
  text,
  summary,
  statement,
});

test("the card never drops a part: past its size, each remaining part keeps one line and says where the rest is", () => {
  const long = "+".repeat(5_000);
  const preview = {
    parts: [
      part(0, long, "/etc/big: +400 −400 lines"),
      part(1, "deletes 40 name(s), 1.2 MiB", "deletes 40 name(s), 1.2 MiB under /srv/x"),
    ],
    notPreviewed: [
      { command: "touch /home/t", reason: "no preview available for this command", statement: 2 },
    ],
  };
  const card = composePreviewText(preview, 3_000, "full preview: `!preview a1`");
  assert.ok(card.shortened);
  assert.ok(card.text.length <= 3_000, `${card.text.length}`);
  assert.match(card.text, /\$ cmd 0: \/etc\/big: \+400 −400 lines — full preview: `!preview a1`/);
  assert.match(card.text, /\$ cmd 1\ndeletes 40 name\(s\), 1\.2 MiB/, "the part that fits is shown in full");
  assert.match(
    card.text,
    /\$ touch \/home\/t(\n| ⏎ )\(not previewed — oikos cannot show what this part changes: no preview available/,
  );
  // In the order of the line, whatever order the parts were stored in.
  const reordered = composePreviewText(
    { parts: [...preview.parts].reverse(), notPreviewed: preview.notPreviewed },
    30_000,
    "x",
  );
  assert.ok(reordered.text.indexOf("$ cmd 0") < reordered.text.indexOf("$ cmd 1"));
  // Many parts: each keeps its line even past the size (never dropped).
  const many = composePreviewText(
    { parts: Array.from({ length: 30 }, (_, i) => part(i, long, `part ${i}`)), notPreviewed: [] },
    3_000,
    "x",
  );
  for (let i = 0; i < 30; i++) assert.ok(many.text.includes(`$ cmd ${i}: part ${i}`), `part ${i}`);
});

test("backup names as GNU makes them: control, suffix, numbered after the highest there", () => {
  const listing = (...names: string[]) => ({
    dir: "/etc",
    entries: names.map((name) => ({ name, inode: "1:1", type: "f", size: 1 })),
  });
  const none = { control: null, suffix: null };
  assert.deepEqual(backupName({ control: undefined, suffix: undefined }, none, "app.conf", listing()), {
    name: "app.conf~",
  });
  assert.deepEqual(
    backupName(
      { control: undefined, suffix: undefined },
      none,
      "app.conf",
      listing("app.conf.~1~", "app.conf.~3~"),
    ),
    {
      name: "app.conf.~4~",
    },
  );
  assert.deepEqual(backupName({ control: "numbered", suffix: undefined }, none, "a", listing()), {
    name: "a.~1~",
  });
  assert.deepEqual(backupName({ control: "simple", suffix: ".bak" }, none, "a", listing("a.~2~")), {
    name: "a.bak",
  });
  assert.equal(backupName({ control: "none", suffix: undefined }, none, "a", listing()), null);
  assert.deepEqual(
    backupName({ control: undefined, suffix: undefined }, { control: null, suffix: ".old" }, "a", listing()),
    {
      name: "a.old",
    },
  );
  assert.deepEqual(
    backupName({ control: undefined, suffix: "/x" }, none, "a", listing()),
    { name: "a~" },
    "a suffix with / is ~",
  );
  assert.ok(
    "unknown" in
      (backupName(
        { control: undefined, suffix: undefined },
        { control: "bogus", suffix: null },
        "a",
        listing(),
      ) ?? {}),
  );
  assert.equal(readControl("num"), "numbered");
  assert.equal(readControl("n"), null, "ambiguous: never, nil, none, numbered");
});
