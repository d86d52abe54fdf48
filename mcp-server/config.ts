import { z } from "zod";
import { PRINCIPAL_ROLES } from "../policy/principal.ts";
import type { McpToken } from "./bearer-auth.ts";

/** The name `mcp.token` (OIKOS_MCP_TOKEN) is known by: one operator token. */
export const SINGLE_TOKEN_NAME = "mcp";

const tokenValue = z.string().min(16, "must be at least 16 characters");
// Strict: a misspelt `role` must fail loudly rather than default to operator.
const namedToken = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "lower-case letters, digits, - and _ (at most 32), e.g. ci-bot"),
  token: tokenValue,
  role: z.enum(PRINCIPAL_ROLES),
});

/**
 * `mcp`: who may use `/mcp`. Each named token is its own principal (policy/principal.ts): sessions it
 * starts are its own, and `read` tokens call read-only tools only. `token` is one operator token
 * named `mcp`.
 */
export const mcpSchema = z
  .object({ token: tokenValue.optional(), tokens: z.array(namedToken).default([]) })
  .prefault({})
  .superRefine((mcp, ctx) => {
    const all = mcpTokens(mcp);
    const names = all.map((entry) => entry.name);
    const values = all.map((entry) => entry.token);
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i)
        ctx.addIssue({
          code: "custom",
          path: ["tokens"],
          message: `the name ${name} is used twice${name === SINGLE_TOKEN_NAME ? " (mcp.token is named mcp)" : ""}`,
        });
    });
    if (new Set(values).size !== values.length)
      ctx.addIssue({ code: "custom", path: ["tokens"], message: "two entries share one token value" });
  });

/** Every token `/mcp` accepts: `mcp.tokens`, and `mcp.token` as the operator token named `mcp`. */
export function mcpTokens(mcp: { token?: string | undefined; tokens: readonly McpToken[] }): McpToken[] {
  return [
    ...(mcp.token ? [{ name: SINGLE_TOKEN_NAME, token: mcp.token, role: "operator" as const }] : []),
    ...mcp.tokens,
  ];
}
