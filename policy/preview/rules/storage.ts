import type { Arg } from "../../command-view.ts";
import type { PreviewRule, ProbeResult } from "../rule.ts";
import { firstUnusable, onlyStage, shellQuote, single, unavailable } from "../rule.ts";
import { humanBytes } from "./human-bytes.ts";
import { REMOVE_RULES } from "./remove.ts";

/**
 * Storage. `zfs destroy`: the datasets and snapshots it takes, listed by `zfs list` (its own `-n`
 * dry run is not run: the read-only proof does not accept `zfs destroy` in any form). `rm`: remove.ts.
 */

const zfsDestroy: PreviewRule = {
  id: "storage.zfs_destroy",
  kind: "storage",
  what: "`zfs destroy`: every dataset, snapshot and (with -R) clone it takes, from `zfs list`",
  match(statement) {
    const stage = onlyStage(statement);
    if (stage?.name !== "zfs" || stage.argv[1]?.value !== "destroy") return null;
    const args = stage.argv.slice(2);
    const why = firstUnusable(args);
    if (why) return unavailable(why);
    const flags = new Set<string>();
    const names: Arg[] = [];
    for (const arg of args) {
      if (/^-[rRfdnpv]+$/.test(arg.value)) for (const letter of arg.value.slice(1)) flags.add(letter);
      else if (arg.value.startsWith("-"))
        return unavailable(`zfs destroy option \`${arg.value}\` is not previewed`);
      else names.push(arg);
    }
    const name = names[0];
    if (!name || names.length > 1) return unavailable("zfs destroy of other than one name is not previewed");
    if (/[%,#]/.test(name.value))
      return unavailable("snapshot ranges, lists and bookmarks are not previewed");
    const recursive = flags.has("r") || flags.has("R");
    const [dataset, snapshot] = name.value.split("@") as [string, string | undefined];
    const q = shellQuote(dataset);
    const probes = snapshot
      ? [
          {
            command: `zfs list -H -p -t snapshot -o name,used,clones ${recursive ? `-r ${q}` : shellQuote(name.value)}`,
            accepts: "zero" as const,
          },
        ]
      : [
          {
            command: `zfs list -H -p -t all -o name,used ${recursive ? "-r" : "-d 1"} ${q}`,
            accepts: "zero" as const,
          },
          ...(flags.has("R")
            ? [{ command: `zfs get -H -r -o name,value clones ${q}`, accepts: "zero" as const }]
            : []),
        ];
    return single({
      ruleId: this.id,
      kind: "storage",
      command: statement.text,
      identity: stage.sudo ? "sudo" : "login",
      paths: [],
      files: [],
      probes,
      render(results) {
        const [list, clones] = results as [ProbeResult, ProbeResult | undefined];
        let rows = list.stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => line.split("\t"));
        if (snapshot) rows = rows.filter(([n]) => n?.endsWith(`@${snapshot}`));
        const cloneNames = (clones?.stdout ?? "")
          .split("\n")
          .map((line) => line.split("\t")[1] ?? "")
          .flatMap((value) => (value === "-" || value === "" ? [] : value.split(",")));
        const lines: string[] = [];
        if (!snapshot && !recursive && rows.length > 1) {
          lines.push(`zfs refuses this without -r: ${dataset} has ${rows.length - 1} children or snapshots`);
        }
        const taken = !snapshot && !recursive ? rows.slice(0, 1) : rows;
        const total = taken.reduce((sum, [, used]) => sum + (Number(used) || 0), 0);
        lines.push(`destroys ${taken.length} dataset(s)/snapshot(s), ${humanBytes(total)} used:`);
        lines.push(...taken.map(([n, used]) => `  ${n} ${humanBytes(Number(used) || 0)}`));
        if (cloneNames.length > 0)
          lines.push(`and the clones (with everything below them): ${cloneNames.join(", ")}`);
        // The effect is what the card shows (sizes too): an approval of "destroys 1 snapshot, 2 MiB"
        // must not go through once it would take 40 GiB.
        if (flags.has("n")) lines.push("-n: a dry run, zfs destroys nothing");
        const text = lines.join("\n");
        const summary = `${flags.has("n") ? "dry run of " : ""}destroys ${taken.length} dataset(s)/snapshot(s), ${humanBytes(total)} used`;
        return { status: "ok", text, effect: text, expectations: [], summary };
      },
    });
  },
  examples: [
    ["zfs destroy -r tank/old", ["zfs list -H -p -t all -o name,used -r tank/old"]],
    [
      "zfs destroy tank/data@before-upgrade",
      ["zfs list -H -p -t snapshot -o name,used,clones tank/data@before-upgrade"],
    ],
    [
      "zfs destroy -R tank/base",
      ["zfs list -H -p -t all -o name,used -r tank/base", "zfs get -H -r -o name,value clones tank/base"],
    ],
    ["zfs destroy tank/a@s1%s5", "unavailable"],
  ],
};

export const STORAGE_RULES: readonly PreviewRule[] = [zfsDestroy, ...REMOVE_RULES];
