import { createHash } from "node:crypto";
import { redact } from "../../redact.ts";
import { unifiedDiff } from "../line-diff.ts";
import type { Probe, ProbeResult, Rendered } from "../rule.ts";
import { shellQuote } from "../rule.ts";

/** The probes that read a file as it is now: whether it exists, whether it is a directory, its content. */
export function currentFileProbes(path: string): Probe[] {
  const q = shellQuote(path);
  return [
    { command: `test -e ${q}`, accepts: "zero_or_one" },
    { command: `test -d ${q}`, accepts: "zero_or_one" },
    { command: `cat -- ${q}`, accepts: "any" },
  ];
}

export const CURRENT_FILE_PROBES = 3;

export interface FileNow {
  exists: boolean;
  content: string;
}

/** Reads currentFileProbes' results; a directory or an unreadable file makes the preview unavailable. */
export function fileNow(path: string, results: ProbeResult[]): FileNow | { unavailable: string } {
  const [exists, directory, content] = results;
  if (!exists || !directory || !content) return { unavailable: `\`${path}\` could not be read` };
  if (directory.exitCode === 0) return { unavailable: `\`${path}\` is a directory` };
  if (exists.exitCode !== 0) return { exists: false, content: "" };
  if (content.exitCode !== 0) {
    return {
      unavailable: `\`${path}\` cannot be read: ${content.stderr.trim() || `exit ${content.exitCode}`}`,
    };
  }
  return { exists: true, content: content.stdout };
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A file's change as the preview shows it: a unified diff, and the hash to check after the run. */
export function renderFileChange(path: string, now: FileNow, after: string, note = ""): Rendered {
  // Redacted as whole files before diffing: a secret recognised by its surroundings (a PEM block's
  // BEGIN/END lines, a key's name) is found there, where a hunk's few context lines may cut them off.
  const shownBefore = redact(now.content);
  const shownAfter = redact(after);
  const diff = unifiedDiff(
    { before: now.exists ? `${path} (now)` : `${path} (does not exist yet)`, after: `${path} (after)` },
    shownBefore,
    shownAfter,
  );
  const secretOnly = diff === "" && now.content !== after;
  const body =
    diff === null
      ? `${path}: the change is too large to show line by line (${lineCount(now.content)} → ${lineCount(after)} lines)`
      : secretOnly
        ? `${path}: only redacted secret values change (not shown)`
        : diff === "" && now.exists
          ? `${path}: no change (the file already has this content)`
          : diff === ""
            ? `${path}: created empty`
            : diff;
  return {
    status: "ok",
    text: note ? `${body}\n${note}` : body,
    effect: `file ${path} ${now.exists ? sha256(now.content) : "absent"} ${sha256(after)}`,
    expectations: [{ kind: "file_hash", path, sha256After: sha256(after) }],
  };
}

function lineCount(text: string): number {
  return text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}
