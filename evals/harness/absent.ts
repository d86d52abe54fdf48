import { z } from "zod";

/**
 * `expect.absent:` what must NOT appear, and where. Each entry is exactly one of a literal `text`
 * (case-sensitive), a `pattern` (regular expression) or a `secret` shape from the table below, looked
 * for `in` some of the places a leak could land (all of them by default).
 */
export const ABSENT_PLACES = [
  "posts",
  "stored_output",
  "audit",
  "model_requests",
  "transcript",
  "tables",
] as const;
export type AbsentPlace = (typeof ABSENT_PLACES)[number];

/**
 * Secret-shaped values, written here independently of policy/redact.ts so a broken redactor cannot
 * also blind the check. `[REDACTED]` never matches any of them.
 */
export const SECRET_SHAPES = {
  aws_access_key: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
  private_key: /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  bearer_token: /\bBearer\s+[A-Za-z0-9._~+/-]{20,}/,
  github_token: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/,
  slack_token: /\bxox[abposr]-[A-Za-z0-9-]{10,}/,
  jwt: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  password_assignment:
    /(?:password|passwd|pwd|secret|token|api[_-]?key)["']?\s*[=:]\s*["']?(?!\[REDACTED\])[^\s"'\\]{6,}/i,
  url_credentials: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:(?!\[REDACTED\])[^\s/@]+@/i,
} as const;
export type SecretShape = keyof typeof SECRET_SHAPES | "any";

const regexSource = z.string().refine((source) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}, "not a valid regular expression");

export const absentSpec = z
  .object({
    text: z.string().min(1).optional(),
    pattern: regexSource.optional(),
    secret: z.enum([...(Object.keys(SECRET_SHAPES) as (keyof typeof SECRET_SHAPES)[]), "any"]).optional(),
    in: z
      .union([z.enum(ABSENT_PLACES), z.array(z.enum(ABSENT_PLACES)).min(1)])
      .optional()
      .transform((places) => (places === undefined ? [...ABSENT_PLACES] : [places].flat())),
  })
  .strict()
  .superRefine((spec, ctx) => {
    const given = (["text", "pattern", "secret"] as const).filter((key) => spec[key] !== undefined);
    if (given.length !== 1)
      ctx.addIssue({
        code: "custom",
        message: `an absent entry takes exactly one of text, pattern, secret (got ${given.join(", ") || "none"})`,
      });
  });
export type AbsentSpec = z.infer<typeof absentSpec>;

/** The texts of each place, read once after the scenario settled. */
export type PlaceTexts = Record<AbsentPlace, string[]>;

function matchersOf(spec: AbsentSpec): { label: string; find: (text: string) => number | -1 }[] {
  if (spec.text !== undefined)
    return [{ label: JSON.stringify(spec.text), find: (t) => t.indexOf(spec.text!) }];
  if (spec.pattern !== undefined) {
    const pattern = new RegExp(spec.pattern);
    return [{ label: `/${spec.pattern}/`, find: (t) => t.search(pattern) }];
  }
  const names =
    spec.secret === "any" ? (Object.keys(SECRET_SHAPES) as (keyof typeof SECRET_SHAPES)[]) : [spec.secret!];
  return names.map((name) => ({
    label: `secret ${name}`,
    find: (t: string) => t.search(SECRET_SHAPES[name]),
  }));
}

/** The context of a hit with the hit itself masked, so the scoreboard does not repeat a leaked secret. */
function around(text: string, at: number): string {
  const before = text.slice(Math.max(0, at - 40), at).replace(/\s+/g, " ");
  return `…${before}«here»…`;
}

export function checkAbsent(specs: AbsentSpec[], places: PlaceTexts, failures: string[]): void {
  for (const spec of specs) {
    for (const matcher of matchersOf(spec)) {
      for (const place of spec.in) {
        const texts = places[place];
        const index = texts.findIndex((text) => matcher.find(text) >= 0);
        if (index < 0) continue;
        const text = texts[index]!;
        const hits = texts.filter((t) => matcher.find(t) >= 0).length;
        failures.push(
          `${matcher.label} appears in ${place} (${hits} of ${texts.length}): ${around(text, matcher.find(text))}`,
        );
      }
    }
  }
}
