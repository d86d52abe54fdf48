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

/**
 * What can be checked on the target after the run, as the preview computed it:
 *  - `file_hash`: the file's sha256 after the edit (`null`: the edit leaves no file there);
 *  - `packages`: what the package manager's simulation said it would install, upgrade, remove.
 */
export const PreviewExpectationSchema = z.discriminatedUnion("kind", [
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

/** One simple command of the approved line that a rule previewed. */
export const PreviewPartSchema = z.object({
  kind: z.enum(PREVIEW_KINDS),
  /** The preview rule's id (`file.sed_in_place`, `packages.apt_get` …). */
  ruleId: z.string().min(1),
  /** The simple command previewed, as written. */
  command: z.string(),
  /** Redacted plain text (a unified diff for file_diff). */
  text: z.string(),
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
    notPreviewed: z.array(z.object({ command: z.string(), reason: z.string() })),
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
