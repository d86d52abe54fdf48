import type { Arg } from "../../command-view.ts";
import type { PreviewRule, ProbeResult } from "../rule.ts";
import { firstUnusable, onlyStage, shellQuote, single, unavailable } from "../rule.ts";

/**
 * Storage. `zfs destroy`: the datasets and snapshots it takes, listed by `zfs list` (its own `-n`
 * dry run is not run: the read-only proof does not accept `zfs destroy` in any form). `rm`: the size
 * and number of files of each path, globs expanded by the same shell.
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
        const text = lines.join("\n");
        return { status: "ok", text, effect: text, expectations: [] };
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

const RM_FLAGS =
  /^-[rRfdvI]+$|^--(recursive|force|dir|verbose|one-file-system|preserve-root|interactive=never)$/;

const rm: PreviewRule = {
  id: "storage.rm",
  kind: "storage",
  what: "`rm`: size and number of files and directories of what it deletes",
  match(statement) {
    const stage = onlyStage(statement);
    if (stage?.name !== "rm") return null;
    const paths: Arg[] = [];
    let optionsDone = false;
    for (const arg of stage.argv.slice(1)) {
      if (arg.dynamic !== "none") return unavailable(`\`${arg.raw}\` is decided at run time`);
      if (!optionsDone && arg.value === "--") optionsDone = true;
      else if (!optionsDone && RM_FLAGS.test(arg.value)) continue;
      else if (!optionsDone && arg.value.startsWith("-"))
        return unavailable(`rm option \`${arg.value}\` is not previewed`);
      else if (arg.value.startsWith("-") || arg.raw.startsWith("-"))
        return unavailable("a path starting with - is not previewed");
      else paths.push(arg);
    }
    if (paths.length === 0) return unavailable("rm names no path");
    // Globs and ~ stay as written: the probe's shell expands them exactly as the command's would.
    const raw = paths.map((arg) => arg.raw).join(" ");
    return single({
      ruleId: this.id,
      kind: "storage",
      command: statement.text,
      files: [],
      probes: [
        { command: `du -s -b -- ${raw}`, accepts: "any" },
        { command: `find ${raw} | wc -l`, accepts: "zero" },
      ],
      render(results) {
        const [du, count] = results as [ProbeResult, ProbeResult];
        const rows = du.stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => line.split("\t"));
        const total = rows.reduce((sum, [size]) => sum + (Number(size) || 0), 0);
        const missing = du.stderr.split("\n").filter(Boolean);
        const lines = [
          `deletes ${humanBytes(total)} in ${count.stdout.trim()} files and directories:`,
          ...rows.map(([size, path]) => `  ${path} ${humanBytes(Number(size) || 0)}`),
          ...missing.map((line) => `  ${line}`),
        ];
        // The effect is what the card shows, size and count too: "deletes 4 KiB in 3 files" approved
        // must not run once the directory holds 40 GiB.
        const text = lines.join("\n");
        return { status: "ok", text, effect: text, expectations: [] };
      },
    });
  },
  examples: [
    ["rm -rf /var/cache/app", ["du -s -b -- /var/cache/app", "find /var/cache/app | wc -l"]],
    ["rm -f /var/log/app/*.gz", ["du -s -b -- /var/log/app/*.gz", "find /var/log/app/*.gz | wc -l"]],
    ["rm -rf $DIR/", "unavailable"],
    ["rm -rf --no-preserve-root /", "unavailable"],
  ],
};

export function humanBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export const STORAGE_RULES: readonly PreviewRule[] = [zfsDestroy, rm];
