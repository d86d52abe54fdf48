import type { Logger } from "../../base/logger.ts";
import { requiredBotScopes, SLACK_BOT_SCOPES } from "./slack-app-manifest.ts";

/**
 * At start-up: the scopes this configuration needs that the bot token lacks, from the
 * X-OAuth-Scopes header Slack returns on every Web API call (the SDK puts it in
 * `response_metadata.scopes`). Each missing one is logged with what breaks without it, so a
 * missing scope is found at start and not at the first click that needs it.
 */
export function checkGrantedScopes(
  authTest: { response_metadata?: { scopes?: string[] } },
  options: { operatorGroup: boolean; logger: Logger },
): string[] {
  const granted = authTest.response_metadata?.scopes;
  if (!granted) {
    options.logger.warn("slack: Slack did not say which scopes the bot token has; skipping the scope check");
    return [];
  }
  const missing = requiredBotScopes(options).filter((scope) => !granted.includes(scope));
  if (missing.length > 0) {
    const breaks = missing.map(
      (scope) => `${scope} (${SLACK_BOT_SCOPES.find((s) => s.scope === scope)?.for ?? ""})`,
    );
    options.logger.error(
      { missingScopes: missing, grantedScopes: granted },
      `slack: the bot token lacks ${missing.join(", ")}; add them under OAuth & Permissions, reinstall the app and restart oikos. Without them: ${breaks.join("; ")}`,
    );
  }
  return missing;
}
