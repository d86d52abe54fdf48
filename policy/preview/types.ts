import { z } from "zod";

/**
 * A plan preview: what a mutating command would change on its target, computed read-only before
 * the operator approves (issue #15). One typed value from the preview rules (policy/preview/) and
 * their executor (jobs/preview/) to the approval card, the stored approval and the summary's
 * comparison after the run. `PlanPreviewSchema` reads it back from storage (a boundary).
 */

/** What a preview shows: a file's diff, package lists, containers, a service, a guest, storage. */
export const PREVIEW_KINDS = ["file_diff", "packages", "containers", "service", "guest", "storage"] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const computedAt = z.string().datetime({ offset: true });

/** One package the package manager says it would touch; `version` as the simulation printed it. */
export const PackageChangeSchema = z.object({ name: z.string().min(1), version: z.string().nullable() });
export type PackageChange = z.output<typeof PackageChangeSchema>;

const identity = z.enum(["login", "sudo"]);

/** A file as a preview predicts it afterwards; `mode`/`uid`/`gid` null where something else decides. */
export const FileAfterSchema = z.object({
  type: z.enum(["file", "link"]),
  sha256: sha256Hex,
  mode: z.number().int().nonnegative().nullable(),
  uid: z.number().int().nonnegative().nullable(),
  gid: z.number().int().nonnegative().nullable(),
  sameInode: z.boolean(),
  /** Its link count afterwards (a new file 1; written in place, as before; moved, the source's). */
  nlink: z.number().int().positive(),
});

/**
 * What can be checked on the target after the run, as the preview computed it:
 *  - `file_hash`: the file's sha256 after the edit (`null`: the edit leaves no file there) — older
 *    previews; new ones say `file_state`;
 *  - `file_state`: a resolved path as the preview predicts it (gone: `after` null), looked at as the
 *    command's user; `before` is the file the preview read (device:inode, links), `otherNames` what its
 *    hard links undergo;
 *  - `dir_entries`: a directory the command writes in, its entries the preview does not name as they
 *    were (a file changed there that the preview did not name is flagged after the run);
 *  - `tree_removed`: what `rm` takes under a resolved root (names counted);
 *  - `packages`: what the package manager's simulation said it would install, upgrade, remove.
 */
export const PreviewExpectationSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("file_state"),
    path: z.string().min(1),
    identity,
    after: FileAfterSchema.nullable(),
    before: z.object({ inode: z.string(), nlink: z.number().int() }).nullable(),
    otherNames: z.enum(["content", "link_count"]).nullable(),
  }),
  z.object({
    kind: z.literal("dir_entries"),
    dir: z.string().min(1),
    identity,
    named: z.array(z.string()),
    others: z.array(
      z.object({ name: z.string(), inode: z.string(), type: z.string(), size: z.number().int() }),
    ),
  }),
  z.object({
    kind: z.literal("tree_removed"),
    root: z.string().min(1),
    identity,
    /** Names under the root, itself included, that rm deletes. */
    names: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    /** device:inode of files under the root with names outside it (they keep them, one link fewer). */
    linkedOutside: z.array(z.string()),
  }),
  z.object({
    kind: z.literal("file_hash"),
    path: z.string().min(1),
    sha256After: sha256Hex.nullable(),
  }),
  z.object({
    kind: z.literal("packages"),
    manager: z.enum(["apt", "dnf"]),
    install: z.array(PackageChangeSchema),
    upgrade: z.array(PackageChangeSchema),
    remove: z.array(z.string().min(1)),
  }),
]);
export type PreviewExpectation = z.output<typeof PreviewExpectationSchema>;
export type FileAfter = z.output<typeof FileAfterSchema>;

/** One simple command of the approved line that a rule previewed. */
export const PreviewPartSchema = z.object({
  kind: z.enum(PREVIEW_KINDS),
  /** The preview rule's id (`file.sed_in_place`, `packages.apt_get` …). */
  ruleId: z.string().min(1),
  /** The simple command previewed, as written. */
  command: z.string(),
  /** Redacted plain text (a unified diff for file_diff). */
  text: z.string(),
  /** One line, for a card out of space ("/etc/x: +2 −1 lines"); older previews have none. */
  summary: z.string().optional(),
  /** Which statement of the line (0-based), so parts and notices read in the line's order. */
  statement: z.number().int().nonnegative().optional(),
});
export type PreviewPart = z.output<typeof PreviewPartSchema>;

export const PlanPreviewSchema = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("available"),
    /** The first part's kind and rule (the card's label); every part is in `parts`. */
    kind: z.enum(PREVIEW_KINDS),
    ruleId: z.string().min(1),
    /** Everything shown: redacted, size-capped plain text (parts joined, each headed by its command). */
    text: z.string(),
    /** `text` was cut to the size cap. */
    truncated: z.boolean(),
    computedAt,
    /**
     * sha256 of the normalised effect (before redaction and capping, without times): two previews
     * with the same fingerprint show the same change. Differs → ask the operator again.
     */
    fingerprint: sha256Hex,
    parts: z.array(PreviewPartSchema).min(1),
    /** Simple commands of a compound line that change state but no rule previews (said in `text`). */
    notPreviewed: z.array(
      z.object({
        command: z.string(),
        reason: z.string(),
        statement: z.number().int().nonnegative().optional(),
      }),
    ),
    /** What the summary can compare after the run (empty when no rule allows a check). */
    expectations: z.array(PreviewExpectationSchema),
  }),
  /** No rule for this command (or its shape): never a guess. `reason` is shown as is. */
  z.object({ status: z.literal("unavailable"), reason: z.string().min(1), computedAt }),
  /** A rule applied but its read-only commands failed, timed out or could not run safely. */
  z.object({ status: z.literal("failed"), reason: z.string().min(1), computedAt }),
]);
export type PlanPreview = z.output<typeof PlanPreviewSchema>;
export type AvailablePreview = Extract<PlanPreview, { status: "available" }>;

/** The comparison after the run: `unchecked` when the check itself could not run. */
export type OutcomeCheck =
  | { status: "matches"; detail: string }
  | { status: "differs"; detail: string }
  | { status: "unchecked"; detail: string };
