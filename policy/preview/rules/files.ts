import type { Arg } from "../../command-view.ts";
import { mayBeSameFile } from "../file-paths.ts";
import type { ProbeIdentity } from "../identity.ts";
import type { PlannedPart, PreviewRule } from "../rule.ts";
import { onlyStage, shellQuote, single, unavailable } from "../rule.ts";
import type { Stage, Statement } from "../statement.ts";
import { type EditContext, editPart, inPlace } from "./file-edit.ts";
import { pathProblem } from "./path-word.ts";

/**
 * File edits. No edit runs, not even on a copy: the new content is computed by read-only commands
 * (sed without -i, in --sandbox; the command that produces what a redirection or tee would write;
 * cat of a copy's source) and the diff is computed by oikos. Every path is resolved on the target
 * first (policy/preview/name-facts.ts), as the user the command writes as.
 */

/**
 * The shell empties (or opens for appending) the written file before the command runs: a command
 * that reads that file reads it emptied (or grows it while reading), not the content the preview
 * would read. A word naming the file declines the preview here; one naming it by another path (a
 * link, `..`) is caught once the names are resolved (`reads` of the part).
 */
function readsWhatItWrites(
  statement: Statement,
  path: string,
  skip: ReadonlySet<Arg> = new Set(),
): string | null {
  for (const word of wordsRead(statement, skip)) {
    if (mayBeSameFile(word, path)) {
      return `the command reads \`${path}\`, which the shell empties or opens before the command reads it, so what it writes cannot be previewed`;
    }
  }
  return null;
}

/** Every literal word of the line that may name a file it reads (the value after `=` too). */
function wordsRead(statement: Statement, skip: ReadonlySet<Arg> = new Set()): string[] {
  const words = [...statement.stages.flatMap((stage) => stage.argv.slice(1)), ...statement.inputs];
  const out = new Set<string>();
  for (const word of words) {
    if (skip.has(word) || word.dynamic !== "none") continue;
    for (const value of [word.value, word.value.slice(word.value.indexOf("=") + 1)]) {
      if (value !== "" && !value.startsWith("-") && !/[\n\r]/.test(value)) out.add(value);
    }
  }
  return [...out];
}

/** The most words of a producer whose resolved names are checked against the file written. */
const MAX_READ_WORDS = 12;

function identityOf(stage: Stage): ProbeIdentity {
  return stage.sudo ? "sudo" : "login";
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
  /** `-iSUFFIX`, `--in-place=SUFFIX`: the old file is kept as name+SUFFIX. */
  suffix: string;
  followSymlinks: boolean;
}

/** Reads sed's argv the way GNU sed's getopt does; a string is why it is not previewed. */
function readSed(args: readonly Arg[]): SedCall | string {
  const call: SedCall = {
    flags: [],
    scripts: [],
    files: [],
    inPlace: false,
    suffix: "",
    followSymlinks: false,
  };
  const positionals: Arg[] = [];
  const addFlag = (flag: string) => {
    if (flag && !call.flags.includes(flag)) call.flags.push(flag);
  };
  const inPlace = (suffix: string) => {
    call.inPlace = true;
    call.suffix = suffix;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    const token = arg.value;
    if (arg.dynamic !== "none") return `\`${arg.raw}\` is decided at run time`;
    if (token === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (token === "--in-place" || token.startsWith("--in-place=")) {
      inPlace(token.slice("--in-place=".length));
      continue;
    }
    if (token === "--follow-symlinks") {
      call.followSymlinks = true;
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
    if (/^-[A-Za-z]/.test(token) && !token.startsWith("--")) {
      // A bundle: `-ni`, `-Ei.bak`, `-in` (everything after `i` is the backup suffix: here `n`), `-ne 's/…/'`.
      const letters = token.slice(1);
      let handled = true;
      for (let at = 0; at < letters.length; at++) {
        const letter = letters[at] as string;
        if (letter === "i") {
          inPlace(letters.slice(at + 1));
          break;
        }
        if (letter === "e") {
          const rest = letters.slice(at + 1);
          const script = rest || args[++i]?.value;
          if (script === undefined) return "`-e` has no script";
          call.scripts.push(script);
          break;
        }
        if (letter === "l") {
          if (at === letters.length - 1) i++;
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

/** sed -i writes a new file with the input's mode and owner (it keeps them where it may). */
function sedAfter(context: EditContext) {
  const { target, facts } = context;
  const input = target.replacesLink ? context.name.target : target.before;
  if (input === null) return "sed -i edits only files that exist";
  const identity = facts.identity;
  if (identity.uid !== 0 && (identity.uid !== input.uid || identity.gid !== input.gid)) {
    return "sed -i by a user that does not own the file gives the new file other owners, which is not previewed";
  }
  return { mode: input.mode, uid: input.uid, gid: input.gid, sameInode: false, nlink: 1 };
}

const sedInPlace: PreviewRule = {
  id: "file.sed_in_place",
  kind: "file_diff",
  what: "`sed -i` edits as a diff of each file (resolved: a link is replaced, or followed with --follow-symlinks), from the same sed script run without -i in --sandbox; the backup a suffix makes",
  match(statement) {
    const stage = onlyStage(statement);
    if (stage?.name !== "sed") return null;
    const call = readSed(stage.argv.slice(1));
    if (typeof call === "string") return unavailable(call);
    if (!call.inPlace) return null;
    if (statement.writes.length > 0) return unavailable("sed -i with a redirection is not previewed");
    if (stage.assignments.length > 0) return unavailable("variables set before sed may change what it does");
    if (call.files.length === 0) return unavailable("sed -i names no file");
    if (call.suffix.includes("*") || call.suffix.includes("/")) {
      return unavailable(`the backup name \`${call.suffix}\` is a pattern or a path, which is not previewed`);
    }
    const parts: PlannedPart[] = [];
    for (const file of call.files) {
      const problem = pathProblem(file);
      if (problem) return unavailable(problem);
      const script = call.scripts.map((s) => `-e ${shellQuote(s)}`).join(" ");
      const flags = call.flags.length > 0 ? ` ${call.flags.join(" ")}` : "";
      parts.push(
        editPart({
          ruleId: this.id,
          command: statement.text,
          identity: identityOf(stage),
          file: file.value,
          follow: call.followSymlinks,
          content: ({ target }) => ({
            command: `sed --sandbox${flags} ${script} -- ${shellQuote(target.path)}`,
          }),
          after: sedAfter,
          otherNames: "link_count",
          ...(call.suffix !== "" ? { backup: { control: "simple", suffix: call.suffix } } : {}),
        }),
      );
    }
    return { parts };
  },
  examples: [
    ["sed -i 's/^listen .*/listen 9090/' /etc/app.conf", ["facts /etc/app.conf"]],
    ["sudo sed -Ei.bak -e 's/a/b/' -e '/^#/d' /etc/x.conf", ["facts /etc/x.conf"]],
    ["sed -in s/a/b/ /etc/f", ["facts /etc/f"]],
    ["sed -i --follow-symlinks s/a/b/ /etc/a /etc/b", ["facts /etc/a", "facts /etc/b"]],
    ["sed -i 's/x/y/e' /etc/f", ["facts /etc/f"]],
    ["sed -i -f edits.sed /etc/f", "unavailable"],
    ["sed -i s/a/b/ $FILE", "unavailable"],
    ["sed -i s/a/b/ /etc/*.conf", "unavailable"],
    ["sed -i s/a/b/ /dev/sda", "unavailable"],
    ["sed -i --debug s/a/b/ /etc/f", "unavailable"],
    ["sed -i'bak/*' s/a/b/ /etc/f", "unavailable"],
  ],
};

// ---- > file, >> file ------------------------------------------------------------------------

const redirectWrite: PreviewRule = {
  id: "file.redirect",
  kind: "file_diff",
  what: "`> file` / `>> file` as a diff of the file it resolves to, from the output of the command alone",
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
    const words = wordsRead(statement);
    if (words.length > MAX_READ_WORDS)
      return unavailable("the command reads too many words to check them all");
    return single(
      // The shell opens the file, as the login: a `sudo` in front of the command does not reach it.
      editPart({
        ruleId: this.id,
        command: statement.text,
        identity: "login",
        file: path,
        follow: true,
        content: () => ({ command: producer }),
        append: write.append,
        after: inPlace,
        otherNames: "content",
        reads: words,
      }),
    );
  },
  examples: [
    ["echo 'listen 9090' > /etc/app.conf", ["facts /etc/app.conf", "facts listen 9090"]],
    ["printf 'a\\n' >> /etc/app.conf 2>/dev/null", ["facts /etc/app.conf", "facts a\\n"]],
    ["cat <<'EOF' > /etc/motd\nhello\nEOF", ["facts /etc/motd"]],
    ["echo $(reboot) > /etc/f", ["facts /etc/f"]],
    ['echo a > "$F"', "unavailable"],
    ["echo a > /etc/a > /etc/b", "unavailable"],
  ],
};

// ---- tee ------------------------------------------------------------------------------------

const TEE_FLAGS = new Set(["-a", "--append", "-i", "--ignore-interrupts", "-p"]);

const tee: PreviewRule = {
  id: "file.tee",
  kind: "file_diff",
  what: "`… | tee file` as a diff of each file it resolves to, from the output of the stages before tee",
  match(statement) {
    const last = statement.stages[statement.stages.length - 1] as Stage;
    if (last.name !== "tee") return null;
    // `tee f <<'EOF' … EOF`, `tee f <<< x`, `tee f < g`: `cat` with the same input prints what tee reads.
    const alone = statement.stages.length === 1 && statement.stdin !== null;
    const producer = alone ? `cat ${statement.stdin}` : statement.producer;
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
    const words = wordsRead(statement, new Set(files));
    if (words.length > MAX_READ_WORDS)
      return unavailable("the command reads too many words to check them all");
    // The stages before tee run as the login (or their own sudo); tee writes as its own user.
    const producerAs: ProbeIdentity = alone ? identityOf(last) : "login";
    const parts: PlannedPart[] = [];
    for (const file of files) {
      const problem = pathProblem(file) ?? readsWhatItWrites(statement, file.value, new Set(files));
      if (problem) return unavailable(problem);
      parts.push(
        editPart({
          ruleId: this.id,
          command: statement.text,
          identity: identityOf(last),
          file: file.value,
          follow: true,
          content: () => ({ command: producer }),
          contentAs: producerAs,
          append,
          after: inPlace,
          otherNames: "content",
          reads: words,
        }),
      );
    }
    return { parts };
  },
  examples: [
    [
      "echo 'nameserver 10.0.0.1' | sudo tee /etc/resolv.conf >/dev/null",
      ["facts /etc/resolv.conf", "facts nameserver 10.0.0.1"],
    ],
    ["cat <<'EOF' | tee -a /etc/exports\n/srv 10.0.0.0/24(ro)\nEOF", ["facts /etc/exports"]],
    ["sudo tee /etc/f > /dev/null <<'EOF'\nlisten 80\nEOF", ["facts /etc/f"]],
    ["tee -a /etc/f <<< 'x'", ["facts /etc/f"]],
    ["tee /etc/f", "unavailable"],
    ["echo x | tee --weird /etc/f", "unavailable"],
  ],
};

export const FILE_RULES: readonly PreviewRule[] = [sedInPlace, tee, redirectWrite];
