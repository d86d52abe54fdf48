import type { Arg } from "../../command-view.ts";
import { unseenPath } from "../file-outcome.ts";
import type { DirListing } from "../file-render.ts";
import { parentOf } from "../file-render.ts";
import { privateMountsUnder } from "../mount-view.ts";
import type { NameFacts } from "../name-facts.ts";
import { namesOf, type PartFacts } from "../part-facts.ts";
import type { PreviewRule, Probe, ProbeResult, Rendered } from "../rule.ts";
import { shellQuote, single, unavailable } from "../rule.ts";
import type { PreviewExpectation } from "../types.ts";
import { listingProbe, parseListing } from "./file-edit.ts";
import { humanBytes } from "./human-bytes.ts";

/**
 * `rm` (issue #37): what it deletes under each name as the target resolves it — globs expanded by the
 * login's shell as the command's shell will, each name looked at as the user rm runs as, never
 * through a final link (rm deletes the link). A directory's names, types and bytes are counted with
 * `pipefail`: a tree the probe cannot read whole (permission denied, a private mount of the jail
 * inside it) is not previewed, never counted short.
 */

const RM_FLAG =
  /^-[rRfdvI]+$|^--(recursive|force|dir|verbose|one-file-system|preserve-root|interactive=never)$/;

interface RmCall {
  recursive: boolean;
  emptyDirs: boolean;
  words: Arg[];
}

function readRm(args: readonly Arg[]): RmCall | string {
  const call: RmCall = { recursive: false, emptyDirs: false, words: [] };
  let optionsDone = false;
  for (const arg of args) {
    if (arg.dynamic !== "none") return `\`${arg.raw}\` is decided at run time`;
    if (!optionsDone && arg.value === "--") optionsDone = true;
    else if (!optionsDone && RM_FLAG.test(arg.value)) {
      if (/^-[^-]*[rR]/.test(arg.value) || arg.value === "--recursive") call.recursive = true;
      if (/^-[^-]*d/.test(arg.value) || arg.value === "--dir") call.emptyDirs = true;
    } else if (!optionsDone && arg.value.startsWith("-"))
      return `rm option \`${arg.value}\` is not previewed`;
    else if (arg.value.startsWith("-") || arg.raw.startsWith("-"))
      return "a path starting with - is not previewed";
    else if (/[\n\r]/.test(arg.value)) return "a path with a line break is not previewed";
    else call.words.push(arg);
  }
  return call.words.length === 0 ? "rm names no path" : call;
}

/** A word the shell expands (glob, `~`, braces): given as written, expanded by the probe's shell. */
function expands(arg: Arg): boolean {
  return arg.raw.startsWith("~") || /[*?[{]/.test(arg.raw.replace(/'[^']*'|\\./g, ""));
}

function queryWord(arg: Arg): string {
  return expands(arg) ? arg.raw : arg.value;
}

/** The most directories whose trees are counted (one probe each). */
const MAX_TREES = 12;

interface Root {
  facts: NameFacts;
  /** What rm does with it: deletes it (and, for a directory with -r, all below), or nothing. */
  deletes: boolean;
  why: string | null;
}

function rootsOf(call: RmCall, facts: PartFacts): Root[] | string {
  const roots: Root[] = [];
  for (const word of call.words) {
    const names = namesOf(facts, queryWord(word));
    if ("unseen" in names) return names.unseen;
    for (const name of names) {
      const unseen = unseenPath(name, facts.view, name.written.endsWith("/"));
      if (unseen) return unseen;
      if (name.written.endsWith("/") && name.entry?.type === "link") {
        return `\`${name.written}\` is a link named with a trailing slash: rm deletes what it points to, which is not previewed`;
      }
      const entry = name.entry;
      if (entry === null)
        roots.push({ facts: name, deletes: false, why: "does not exist: nothing to delete" });
      else if (entry.type === "dir" && !call.recursive && !call.emptyDirs)
        roots.push({ facts: name, deletes: false, why: "is a directory: rm refuses it without -r" });
      else roots.push({ facts: name, deletes: true, why: null });
      const hidden = entry?.type === "dir" ? privateMountsUnder(facts.view, name.name) : [];
      if (hidden.length > 0) {
        return `\`${name.written}\` holds \`${hidden.join("`, `")}\`, which the read-only jail replaces with a private directory for its own commands, so what rm deletes there cannot be counted`;
      }
    }
  }
  return roots;
}

/** Per directory deleted with -r: its names by type, its bytes, its files with names elsewhere. */
function treeProbe(root: NameFacts): Probe {
  const dir = shellQuote(root.dir.path);
  const name = shellQuote(`./${root.name.slice(root.name.lastIndexOf("/") + 1)}`);
  return {
    command: `cd -P -- ${dir} && set -o pipefail && find -P ${name} -printf '%y\\n' | sort | uniq -c && du -s -b -l -- ${name} && find -P ${name} ! -type d -links +1 -printf 'H %D:%i %n\\n'`,
    accepts: "zero",
  };
}

interface Tree {
  byType: Map<string, number>;
  bytes: number;
  /** device:inode → link count and how many of its names are in the tree. */
  linked: Map<string, { nlink: number; inside: number }>;
}

function parseTree(result: ProbeResult): Tree | null {
  const tree: Tree = { byType: new Map(), bytes: -1, linked: new Map() };
  for (const line of result.stdout.split("\n")) {
    const count = /^\s*(\d+) ([a-zA-Z])$/.exec(line);
    const du = /^(\d+)\t/.exec(line);
    const hard = /^H (\d+:\d+) (\d+)$/.exec(line);
    if (count) tree.byType.set(count[2] as string, Number(count[1]));
    else if (du && tree.bytes < 0) tree.bytes = Number(du[1]);
    else if (hard) {
      const known = tree.linked.get(hard[1] as string) ?? { nlink: Number(hard[2]), inside: 0 };
      known.inside++;
      tree.linked.set(hard[1] as string, known);
    } else if (line !== "") return null;
  }
  return tree.bytes < 0 ? null : tree;
}

const TYPE_WORDS: Record<string, string> = { f: "files", d: "directories", l: "links" };

function byTypeText(byType: Map<string, number>): string {
  return [...byType].map(([type, n]) => `${n} ${TYPE_WORDS[type] ?? `other (${type})`}`).join(", ");
}

const rm: PreviewRule = {
  id: "storage.rm",
  kind: "storage",
  what: "`rm`: per resolved name what it deletes — names by type and bytes, counted whole or not at all — and what keeps other names",
  match(statement) {
    const stage = statement.stages.length === 1 ? statement.stages[0] : null;
    if (stage?.name !== "rm") return null;
    if (statement.writes.length > 0 || stage.assignments.length > 0)
      return unavailable("rm with redirections or variables is not previewed");
    const call = readRm(stage.argv.slice(1));
    if (typeof call === "string") return unavailable(call);
    const trees = (facts: PartFacts) => {
      const roots = rootsOf(call, facts);
      return typeof roots === "string"
        ? roots
        : roots.filter((root) => root.deletes && root.facts.entry?.type === "dir" && call.recursive);
    };
    const parents = (facts: PartFacts) => {
      const roots = rootsOf(call, facts);
      return typeof roots === "string"
        ? []
        : [...new Set(roots.filter((r) => r.deletes).map((r) => r.facts.dir.path))];
    };
    return single({
      ruleId: this.id,
      kind: "storage",
      command: statement.text,
      identity: stage.sudo ? "sudo" : "login",
      files: [],
      paths: call.words.map((word) => ({ word: queryWord(word), expand: expands(word) })),
      probes(facts) {
        const dirs = trees(facts);
        if (typeof dirs === "string") return { unavailable: dirs };
        if (dirs.length > MAX_TREES)
          return { unavailable: `rm deletes ${dirs.length} directories, more than the preview counts` };
        return [
          ...dirs.map((root) => treeProbe(root.facts)),
          ...parents(facts).slice(0, 4).map(listingProbe),
        ];
      },
      render(results, facts): Rendered {
        const roots = rootsOf(call, facts);
        if (typeof roots === "string") return { status: "unavailable", reason: roots };
        const dirs = trees(facts) as Root[];
        const byType = new Map<string, number>();
        const lines: string[] = [];
        const expectations: PreviewExpectation[] = [];
        let total = 0;
        let names = 0;
        let linkedOutside = 0;
        for (const root of roots) {
          const { facts: name } = root;
          const label = name.written === name.name ? name.name : `${name.name} (named \`${name.written}\`)`;
          if (!root.deletes || name.entry === null) {
            lines.push(`  ${label}: ${root.why}`);
            continue;
          }
          const at = dirs.findIndex((dir) => dir.facts.name === name.name);
          let tree: Tree;
          if (at >= 0) {
            const parsed = parseTree(results[at] as ProbeResult);
            if (parsed === null)
              return {
                status: "unavailable",
                reason: `what rm deletes under \`${name.name}\` did not read back`,
              };
            tree = parsed;
          } else {
            const type =
              name.entry.type === "file"
                ? "f"
                : name.entry.type === "link"
                  ? "l"
                  : name.entry.type === "dir"
                    ? "d"
                    : "o";
            tree = {
              byType: new Map([[type, 1]]),
              bytes: name.entry.size,
              linked:
                name.entry.type !== "dir" && name.entry.nlink > 1
                  ? new Map([[name.entry.inode, { nlink: name.entry.nlink, inside: 1 }]])
                  : new Map(),
            };
          }
          const count = [...tree.byType.values()].reduce((a, b) => a + b, 0);
          const outside = [...tree.linked].filter(([, l]) => l.nlink > l.inside).map(([inode]) => inode);
          for (const [type, n] of tree.byType) byType.set(type, (byType.get(type) ?? 0) + n);
          total += tree.bytes;
          names += count;
          linkedOutside += outside.length;
          lines.push(`  ${label}: ${count} name(s) (${byTypeText(tree.byType)}), ${humanBytes(tree.bytes)}`);
          expectations.push({
            kind: "tree_removed",
            root: name.name,
            identity: stage.sudo ? "sudo" : "login",
            names: count,
            bytes: tree.bytes,
            linkedOutside: outside,
          });
        }
        const head =
          names === 0
            ? "deletes nothing:"
            : `deletes ${names} name(s) (${byTypeText(byType)}), ${humanBytes(total)}:`;
        if (linkedOutside > 0) {
          lines.push(
            `${linkedOutside} of these files have other names (hard links) outside what is deleted: those stay, with one link fewer`,
          );
        }
        const listings = results
          .slice(dirs.length)
          .map((result, i) => parseListing(parents(facts)[i] as string, result))
          .filter((l): l is DirListing => l !== null);
        for (const listing of listings) {
          const named = roots
            .filter((r) => r.deletes && parentOf(r.facts.name) === listing.dir)
            .map((r) => r.facts.name.slice(listing.dir.length + (listing.dir === "/" ? 0 : 1)));
          expectations.push({
            kind: "dir_entries",
            dir: listing.dir,
            identity: stage.sudo ? "sudo" : "login",
            named,
            others: listing.entries.filter((e) => !named.includes(e.name)),
          });
        }
        const text = [head, ...lines].join("\n");
        const deleted = roots.filter((r) => r.deletes && r.facts.entry !== null);
        return {
          status: "ok",
          text,
          // Sizes, counts and what each name resolved to: "deletes 4 KiB" approved does not run
          // once it would delete 40 GiB, nor once a name is a link to elsewhere.
          effect: JSON.stringify([
            text,
            deleted.map((r) => [r.facts.name, r.facts.entry?.inode, r.facts.entry?.type]),
          ]),
          expectations,
          summary: `${head.replace(/:$/, "")} under ${deleted.map((r) => r.facts.name).join(", ") || "nothing"}`,
          touches: {
            writes: deleted.map((r) => r.facts.name),
            reads: [],
            inodes: deleted.flatMap((r) => (r.facts.entry ? [r.facts.entry.inode] : [])),
          },
        };
      },
    });
  },
  examples: [
    ["rm -rf /var/cache/app", ["facts /var/cache/app"]],
    ["rm -f /var/log/app/*.gz", ["facts /var/log/app/*.gz"]],
    ["sudo rm -r /root/old", ["facts /root/old"]],
    ["rm -rf $DIR/", "unavailable"],
    ["rm -rf --no-preserve-root /", "unavailable"],
    ["rm -i /etc/x", "unavailable"],
  ],
};

export const REMOVE_RULES: readonly PreviewRule[] = [rm];
