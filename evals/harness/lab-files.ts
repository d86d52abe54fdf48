import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../store/schema.ts";
import { type CountSpec, checkCount, count } from "./count.ts";

/**
 * Real files on lab hosts, for scenarios about what a command would change in a file (plan
 * previews, issue #15): `hosts[].files` writes them before the scenario, the operator step
 * `write_file` changes one mid-scenario (the file changed between preview and approval), and
 * `expect.files` checks their content at the end (did anything change?). Lab hosts share this
 * machine's filesystem, so every path lives under one folder of its own.
 */
export const LAB_FILES_DIR = "/srv/oikos-eval-files/";

export const labFilePath = z
  .string()
  .refine(
    (path) => path.startsWith(LAB_FILES_DIR) && !path.split("/").includes("..") && /^[\w./-]+$/.test(path),
    `a path under ${LAB_FILES_DIR} (letters, digits, . _ - /, no ..)`,
  );

/** `hosts[].files`: path → content, written (world-writable: the lab user edits them) before the scenario. */
export const hostFiles = z.record(labFilePath, z.string()).default({});

/** Operator step `write_file`: the file on the host changes now (someone else edited it). */
export const writeFileAction = z
  .object({ host: z.string(), path: labFilePath, content: z.string() })
  .strict();
export type WriteFileAction = z.infer<typeof writeFileAction>;

/** `expect.files`: each file's content at the end — `equals` exactly, or `contains`. */
export const expectFiles = z.record(
  labFilePath,
  z
    .object({ equals: z.string().optional(), contains: z.string().optional() })
    .strict()
    .refine((spec) => spec.equals !== undefined || spec.contains !== undefined, "equals or contains"),
);

/**
 * `expect.previews`: what the previews table recorded (store/previews.ts) — `shown` previews on
 * approval cards (with `status` the status of the first), `rechecked` at approval, `asked_again`
 * (approvals closed because the preview changed), and `outcome` of the after-run comparison.
 */
export const previewsSpec = z
  .object({
    shown: count.optional(),
    status: z.enum(["available", "unavailable", "failed"]).optional(),
    text_contains: z.string().optional(),
    rechecked: count.optional(),
    asked_again: count.optional(),
    outcome: z.enum(["matches", "differs", "unchecked"]).optional(),
  })
  .strict();
export type PreviewsSpec = z.infer<typeof previewsSpec>;

export async function writeLabFile(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o777 });
  // The lab sessions log in as another user: they must be able to edit the file in place (sed -i renames into the folder).
  await chmod(dirname(path), 0o777);
  await writeFile(path, content);
  await chmod(path, 0o666);
}

export async function checkFiles(
  expect: z.infer<typeof expectFiles> | undefined,
  failures: string[],
): Promise<void> {
  for (const [path, spec] of Object.entries(expect ?? {})) {
    const content = await readFile(path, "utf8").catch(() => undefined);
    if (content === undefined) {
      failures.push(`file ${path} does not exist`);
      continue;
    }
    if (spec.equals !== undefined && content !== spec.equals)
      failures.push(`file ${path} is ${JSON.stringify(content)}, expected ${JSON.stringify(spec.equals)}`);
    if (spec.contains !== undefined && !content.includes(spec.contains))
      failures.push(`file ${path} does not contain ${JSON.stringify(spec.contains)}`);
  }
}

export async function checkPreviews(
  db: Kysely<Database>,
  sessionId: string | undefined,
  spec: PreviewsSpec | undefined,
  failures: string[],
): Promise<void> {
  if (!spec) return;
  const rows = await db
    .selectFrom("previews")
    .selectAll()
    .where("session_id", "=", sessionId ?? "none")
    .orderBy("id")
    .execute();
  const shown = rows.filter((r) => r.purpose === "shown");
  const rechecks = rows.filter((r) => r.purpose === "recheck");
  const counted: [string, number, CountSpec | undefined][] = [
    ["previews shown on approval cards", shown.length, spec.shown],
    ["previews computed again at approval", rechecks.length, spec.rechecked],
    [
      "approvals asked again (the preview changed)",
      rechecks.filter((r) => r.decision?.startsWith("ask_again")).length,
      spec.asked_again,
    ],
  ];
  for (const [what, actual, wanted] of counted) checkCount(what, actual, wanted, failures);
  const first = shown[0];
  if (spec.status !== undefined && first?.status !== spec.status)
    failures.push(`the first preview shown is ${first?.status ?? "missing"}, expected ${spec.status}`);
  if (spec.text_contains !== undefined) {
    const text = (first?.preview as { text?: string } | undefined)?.text ?? "";
    if (!text.includes(spec.text_contains))
      failures.push(`the first preview shown does not contain ${JSON.stringify(spec.text_contains)}`);
  }
  if (spec.outcome !== undefined) {
    const outcomes = shown.flatMap((r) => (r.outcome ?? []) as { status?: string }[]).map((o) => o.status);
    if (!outcomes.includes(spec.outcome))
      failures.push(`no after-run comparison was ${spec.outcome} (found ${outcomes.join(", ") || "none"})`);
  }
}
