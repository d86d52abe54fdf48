import type { Arg } from "../../command-view.ts";
import { normalisePath } from "../../paths.ts";
import { mayBeSameFile, sameWrittenPath } from "../file-paths.ts";
import type { PlannedPart, PreviewRule, ProbeResult } from "../rule.ts";
import { firstUnusable, onlyStage, shellQuote, single, unavailable } from "../rule.ts";
import type { Stage, Statement } from "../statement.ts";
import { CURRENT_FILE_PROBES, currentFileProbes, fileNow, renderFileChange } from "./file-diff.ts";

/**
 * File edits. No edit runs, not even on a copy: the new content is computed by read-only commands
 * (sed without -i, in --sandbox; the command that produces what a redirection or tee would write;
 * cat of a copy's source) and the diff is computed by oikos.
 */

/** What a file-edit part needs: the path, the probes that produce the new content, how to combine. */
function filePart(
  ruleId: string,
  command: string,
  path: string,
  produce: { command: string }[],
  after: (
    produced: ProbeResult[],
    now: { exists: boolean; content: string },
  ) => string | { unavailable: string },
  note = "",
): PlannedPart {
  return {
    ruleId,
    kind: "file_diff",
    command,
    files: [path],
    probes: [
      ...currentFileProbes(path),
      ...produce.map((p) => ({ command: p.command, accepts: "zero" as const })),
    ],
    render(results) {
      const now = fileNow(path, results.slice(0, CURRENT_FILE_PROBES));
      if ("unavailable" in now) return { status: "unavailable", reason: now.unavailable };
      const content = after(results.slice(CURRENT_FILE_PROBES), now);
      if (typeof content !== "string") return { status: "unavailable", reason: content.unavailable };
      return renderFileChange(path, now, content, note);
    },
  };
}

function pathProblem(arg: Arg): string | null {
  const why = firstUnusable([arg]);
  if (why) return why;
  if (arg.value === "-" || arg.value === "") return `\`${arg.raw}\` is not a file path`;
  // `..` is resolved by the target through its links (`/etc/x/../tmp` is not `/etc/tmp` when
  // /etc/x is a link), so no check on the words below could hold.
  if (arg.value.split("/").includes("..")) {
    return `\`${arg.value}\` goes up with \`..\`, which the target resolves through its links`;
  }
  const path = normalisePath(arg.value);
  if (/^\/(dev|proc|sys)(\/|$)/.test(path)) return `\`${arg.value}\` is not a regular file`;
  // The read-only jail gives its commands a private /tmp, /var/tmp and /dev/shm (and the links to
  // it): a preview there would read an empty scratch space, not the file the command edits.
  if (/^\/(tmp|var\/tmp|run\/shm|var\/run\/shm)(\/|$)/.test(path)) {
    return `\`${arg.value}\` is in scratch space, which the read-only jail does not show`;
  }
  return null;
}

/**
 * The shell empties (or opens for appending) the written file before the command runs: a command
 * that reads that file reads it emptied (or grows it while reading), not the content the preview
 * would read. Any word or `< file` of the line naming the file declines the preview.
 */
function readsWhatItWrites(
  statement: Statement,
  path: string,
  skip: ReadonlySet<Arg> = new Set(),
): string | null {
  const words = [...statement.stages.flatMap((stage) => stage.argv.slice(1)), ...statement.inputs];
  for (const word of words) {
    if (skip.has(word) || word.dynamic !== "none") continue;
    const value = word.value.includes("=") ? word.value.slice(word.value.indexOf("=") + 1) : word.value;
    if (value !== "" && (mayBeSameFile(word.value, path) || mayBeSameFile(value, path))) {
      return `the command reads \`${path}\`, which the shell empties or opens before the command reads it, so what it writes cannot be previewed`;
    }
  }
  return null;
}

// ---- sed -i ---------------------------------------------------------------------------------

const SED_FLAGS = new Map([
  ["-n", "-n"],
  ["--quiet", "-n"],
  ["--silent", "-n"],
  ["-E", "-E"],
  ["-r", "-E"],
  ["--regexp-extended", "-E"],
  ["-s", ""],
  ["--separate", ""],
  ["-z", "-z"],
  ["--null-data", "-z"],
  ["-u", ""],
  ["--unbuffered", ""],
  ["--posix", "--posix"],
  ["--follow-symlinks", ""],
  ["--sandbox", ""],
  ["-b", ""],
  ["--binary", ""],
]);
const SED_SHORT = new Set(["n", "E", "r", "s", "z", "u", "b"]);

interface SedCall {
  flags: string[];
  scripts: string[];
  files: Arg[];
  inPlace: boolean;
}

/** Reads sed's argv the way GNU sed's getopt does; a string is why it is not previewed. */
function readSed(args: readonly Arg[]): SedCall | string {
  const call: SedCall = { flags: [], scripts: [], files: [], inPlace: false };
  const positionals: Arg[] = [];
  const addFlag = (flag: string) => {
    if (flag && !call.flags.includes(flag)) call.flags.push(flag);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    const token = arg.value;
    if (arg.dynamic !== "none") return `\`${arg.raw}\` is decided at run time`;
    if (token === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (
      token === "-i" ||
      token.startsWith("-i") ||
      token === "--in-place" ||
      token.startsWith("--in-place=")
    ) {
      call.inPlace = true;
      continue;
    }
    if (token === "-e" || token === "--expression") {
      const script = args[++i];
      if (!script) return "`-e` has no script";
      call.scripts.push(script.value);
      continue;
    }
    if (token.startsWith("--expression=")) {
      call.scripts.push(token.slice("--expression=".length));
      continue;
    }
    if (token === "-f" || token.startsWith("--file") || (token.startsWith("-f") && !token.startsWith("--"))) {
      return "the sed script comes from a file, which the preview cannot check";
    }
    if (token === "-l" || token === "--line-length") {
      i++;
      continue;
    }
    if (token.startsWith("--line-length=")) continue;
    const known = SED_FLAGS.get(token);
    if (known !== undefined) {
      addFlag(known);
      continue;
    }
    if (/^-[A-Za-z]{2,}/.test(token)) {
      // A bundle: `-ni`, `-Ei.bak` (everything after `i` is the backup suffix), `-ne 's/…/'`.
      const letters = token.slice(1);
      let handled = true;
      for (let at = 0; at < letters.length; at++) {
        const letter = letters[at] as string;
        if (letter === "i") {
          call.inPlace = true;
          break;
        }
        if (letter === "e") {
          const rest = letters.slice(at + 1);
          const script = rest || args[++i]?.value;
          if (script === undefined) return "`-e` has no script";
          call.scripts.push(script);
          break;
        }
        if (!SED_SHORT.has(letter)) {
          handled = false;
          break;
        }
        addFlag(SED_FLAGS.get(`-${letter}`) ?? "");
      }
      if (!handled) return `sed option \`${token}\` is not previewed`;
      continue;
    }
    if (token.startsWith("-") && token !== "-") return `sed option \`${token}\` is not previewed`;
    positionals.push(arg);
  }
  if (call.scripts.length === 0) {
    const script = positionals.shift();
    if (!script) return "sed has no script";
    call.scripts.push(script.value);
  }
  call.files = positionals;
  return call;
}

const sedInPlace: PreviewRule = {
  id: "file.sed_in_place",
  kind: "file_diff",
  what: "`sed -i` edits as a diff of each file, from the same sed script run without -i in --sandbox",
  match(statement) {
    const stage = onlyStage(statement);
    if (stage?.name !== "sed") return null;
    const call = readSed(stage.argv.slice(1));
    if (typeof call === "string") return unavailable(call);
    if (!call.inPlace) return null;
    if (statement.writes.length > 0) return unavailable("sed -i with a redirection is not previewed");
    if (stage.assignments.length > 0) return unavailable("variables set before sed may change what it does");
    if (call.files.length === 0) return unavailable("sed -i names no file");
    const parts: PlannedPart[] = [];
    for (const file of call.files) {
      const problem = pathProblem(file);
      if (problem) return unavailable(problem);
      const script = call.scripts.map((s) => `-e ${shellQuote(s)}`).join(" ");
      const flags = call.flags.length > 0 ? ` ${call.flags.join(" ")}` : "";
      const edit = `sed --sandbox${flags} ${script} -- ${shellQuote(file.value)}`;
      parts.push(
        filePart(this.id, statement.text, file.value, [{ command: edit }], ([out]) => out?.stdout ?? ""),
      );
    }
    return { parts };
  },
  examples: [
    [
      "sed -i 's/^listen .*/listen 9090/' /etc/app.conf",
      [
        "test -e /etc/app.conf",
        "test -d /etc/app.conf",
        "cat -- /etc/app.conf",
        "sed --sandbox -e 's/^listen .*/listen 9090/' -- /etc/app.conf",
      ],
    ],
    [
      "sudo sed -Ei.bak -e 's/a/b/' -e '/^#/d' /etc/x.conf",
      [
        "test -e /etc/x.conf",
        "test -d /etc/x.conf",
        "cat -- /etc/x.conf",
        "sed --sandbox -E -e s/a/b/ -e '/^#/d' -- /etc/x.conf",
      ],
    ],
    [
      "sed -i 's/x/y/e' /etc/f",
      ["test -e /etc/f", "test -d /etc/f", "cat -- /etc/f", "sed --sandbox -e s/x/y/e -- /etc/f"],
    ],
    ["sed -i -f edits.sed /etc/f", "unavailable"],
    ["sed -i s/a/b/ $FILE", "unavailable"],
    ["sed -i s/a/b/ /etc/*.conf", "unavailable"],
    ["sed -i s/a/b/ /dev/sda", "unavailable"],
    ["sed -i --debug s/a/b/ /etc/f", "unavailable"],
  ],
};

// ---- > file, >> file ------------------------------------------------------------------------

const redirectWrite: PreviewRule = {
  id: "file.redirect",
  kind: "file_diff",
  what: "`> file` / `>> file` as a diff, from the output of the command alone",
  match(statement) {
    if (statement.writes.length === 0) return null;
    if (statement.writes.length > 1) return unavailable("the command writes more than one file");
    const write = statement.writes[0] as Statement["writes"][number];
    const problem = pathProblem(write.path);
    if (problem) return unavailable(problem);
    const producer = statement.producer ?? ":";
    const path = write.path.value;
    const reads = readsWhatItWrites(statement, path);
    if (reads) return unavailable(reads);
    return single(
      filePart(this.id, statement.text, path, [{ command: producer }], ([out], now) =>
        write.append ? now.content + (out?.stdout ?? "") : (out?.stdout ?? ""),
      ),
    );
  },
  examples: [
    [
      "echo 'listen 9090' > /etc/app.conf",
      ["test -e /etc/app.conf", "test -d /etc/app.conf", "cat -- /etc/app.conf", "echo 'listen 9090'"],
    ],
    [
      "printf 'a\\n' >> /etc/app.conf 2>/dev/null",
      ["test -e /etc/app.conf", "test -d /etc/app.conf", "cat -- /etc/app.conf", "printf 'a\\n' 2>/dev/null"],
    ],
    [
      "cat <<'EOF' > /etc/motd\nhello\nEOF",
      ["test -e /etc/motd", "test -d /etc/motd", "cat -- /etc/motd", "cat <<'EOF'\nhello\nEOF"],
    ],
    ["echo $(reboot) > /etc/f", ["test -e /etc/f", "test -d /etc/f", "cat -- /etc/f", "echo $(reboot)"]],
    ['echo a > "$F"', "unavailable"],
    ["echo a > /etc/a > /etc/b", "unavailable"],
  ],
};

// ---- tee ------------------------------------------------------------------------------------

const TEE_FLAGS = new Set(["-a", "--append", "-i", "--ignore-interrupts", "-p"]);

const tee: PreviewRule = {
  id: "file.tee",
  kind: "file_diff",
  what: "`… | tee file` as a diff of each file, from the output of the stages before tee",
  match(statement) {
    const last = statement.stages[statement.stages.length - 1] as Stage;
    if (last.name !== "tee") return null;
    // `tee f <<'EOF' … EOF`, `tee f <<< x`, `tee f < g`: `cat` with the same input prints what tee reads.
    const producer =
      statement.stages.length === 1 && statement.stdin !== null
        ? `cat ${statement.stdin}`
        : statement.producer;
    if (producer === null) {
      return unavailable("tee reads what is typed or piped from elsewhere, which is not previewed");
    }
    if (last.assignments.length > 0) return unavailable("variables set before tee may change what it does");
    if (statement.writes.length > 0)
      return unavailable("tee with its output redirected to a file is not previewed");
    let append = false;
    const files: Arg[] = [];
    let optionsDone = false;
    for (const arg of last.argv.slice(1)) {
      if (arg.dynamic !== "none") return unavailable(`\`${arg.raw}\` is decided at run time`);
      if (!optionsDone && arg.value === "--") optionsDone = true;
      else if (!optionsDone && arg.value.startsWith("--output-error")) continue;
      else if (!optionsDone && TEE_FLAGS.has(arg.value))
        append ||= arg.value === "-a" || arg.value === "--append";
      else if (!optionsDone && arg.value.startsWith("-") && arg.value !== "-") {
        return unavailable(`tee option \`${arg.value}\` is not previewed`);
      } else files.push(arg);
    }
    if (files.length === 0) return null;
    const parts: PlannedPart[] = [];
    for (const file of files) {
      const problem = pathProblem(file) ?? readsWhatItWrites(statement, file.value, new Set(files));
      if (problem) return unavailable(problem);
      parts.push(
        filePart(this.id, statement.text, file.value, [{ command: producer }], ([out], now) =>
          append ? now.content + (out?.stdout ?? "") : (out?.stdout ?? ""),
        ),
      );
    }
    return { parts };
  },
  examples: [
    [
      "echo 'nameserver 10.0.0.1' | sudo tee /etc/resolv.conf >/dev/null",
      [
        "test -e /etc/resolv.conf",
        "test -d /etc/resolv.conf",
        "cat -- /etc/resolv.conf",
        "echo 'nameserver 10.0.0.1'",
      ],
    ],
    [
      "cat <<'EOF' | tee -a /etc/exports\n/srv 10.0.0.0/24(ro)\nEOF",
      [
        "test -e /etc/exports",
        "test -d /etc/exports",
        "cat -- /etc/exports",
        "cat <<'EOF'\n/srv 10.0.0.0/24(ro)\nEOF",
      ],
    ],
    [
      "sudo tee /etc/f > /dev/null <<'EOF'\nlisten 80\nEOF",
      ["test -e /etc/f", "test -d /etc/f", "cat -- /etc/f", "cat <<'EOF'\nlisten 80\nEOF"],
    ],
    ["tee -a /etc/f <<< 'x'", ["test -e /etc/f", "test -d /etc/f", "cat -- /etc/f", "cat <<< 'x'"]],
    ["tee /etc/f", "unavailable"],
    ["echo x | tee --weird /etc/f", "unavailable"],
  ],
};

// ---- cp, install, mv onto a file ------------------------------------------------------------

const COPY_FLAGS: Record<string, { flags: readonly string[]; valued: readonly string[] }> = {
  cp: {
    flags: ["-f", "--force", "-p", "-v", "--verbose", "-L", "--dereference", "--remove-destination", "-b"],
    valued: [],
  },
  install: {
    flags: ["-p", "-v", "-c", "-C", "--compare", "-D", "--verbose", "-b"],
    valued: ["-m", "-o", "-g"],
  },
  mv: { flags: ["-f", "--force", "-v", "--verbose", "-b"], valued: [] },
};
const COPY_LONG_VALUED = [
  "--preserve",
  "--no-preserve",
  "--mode",
  "--owner",
  "--group",
  "--backup",
  "--suffix",
];

const copyOnto: PreviewRule = {
  id: "file.copy",
  kind: "file_diff",
  what: "`cp` / `install` / `mv` of one file onto another as a diff of the destination",
  match(statement) {
    const stage = onlyStage(statement);
    const table = stage ? COPY_FLAGS[stage.name] : undefined;
    if (!stage || !table) return null;
    if (statement.writes.length > 0 || stage.assignments.length > 0) {
      return unavailable(`${stage.name} with redirections or variables is not previewed`);
    }
    const positionals: Arg[] = [];
    const args = stage.argv.slice(1);
    let optionsDone = false;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as Arg;
      if (arg.dynamic !== "none") return unavailable(`\`${arg.raw}\` is decided at run time`);
      const token = arg.value;
      if (optionsDone || !token.startsWith("-") || token === "-") positionals.push(arg);
      else if (token === "--") optionsDone = true;
      else if (table.flags.includes(token)) continue;
      else if (table.valued.includes(token)) i++;
      else if (table.valued.some((flag) => token.startsWith(flag) && token.length > 2)) continue;
      else if (COPY_LONG_VALUED.some((flag) => token === flag || token.startsWith(`${flag}=`))) continue;
      else
        return unavailable(
          `${stage.name} option \`${token}\` is not previewed (one file onto one file only)`,
        );
    }
    if (positionals.length !== 2)
      return unavailable(`${stage.name} of several files or into a directory is not previewed`);
    const [source, destination] = positionals as [Arg, Arg];
    const problem = pathProblem(source) ?? pathProblem(destination);
    if (problem) return unavailable(problem);
    if (destination.value.endsWith("/")) return unavailable(`\`${destination.value}\` is a directory`);
    if (sameWrittenPath(source.value, destination.value)) {
      return unavailable(`${stage.name} of \`${source.value}\` onto itself is not previewed`);
    }
    const note =
      stage.name === "mv"
        ? `${source.value} is moved: it no longer exists there afterwards`
        : stage.name === "install"
          ? "install also sets mode and owner; those are not shown"
          : "";
    return single(
      filePart(
        this.id,
        statement.text,
        destination.value,
        [{ command: `cat -- ${shellQuote(source.value)}` }],
        ([out]) => out?.stdout ?? "",
        note,
      ),
    );
  },
  examples: [
    [
      "cp /etc/app.conf.new /etc/app.conf",
      ["test -e /etc/app.conf", "test -d /etc/app.conf", "cat -- /etc/app.conf", "cat -- /etc/app.conf.new"],
    ],
    [
      "sudo install -m 0644 -o root ./exports /etc/exports",
      ["test -e /etc/exports", "test -d /etc/exports", "cat -- /etc/exports", "cat -- ./exports"],
    ],
    [
      "mv -f /srv/x.conf /etc/x.conf",
      ["test -e /etc/x.conf", "test -d /etc/x.conf", "cat -- /etc/x.conf", "cat -- /srv/x.conf"],
    ],
    ["cp /tmp/new.conf /etc/x.conf", "unavailable"],
    ["cp -r /etc/a /etc/b", "unavailable"],
    ["cp a b c/", "unavailable"],
    ["cp --preserve=all -s a /etc/b", "unavailable"],
    ["cp -t /etc a", "unavailable"],
  ],
};

export const FILE_RULES: readonly PreviewRule[] = [sedInPlace, tee, redirectWrite, copyOnto];
