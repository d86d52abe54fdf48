import type { Runtime } from "../../app/runtime.ts";
import { ConfigError } from "../../base/errors.ts";
import type { AdapterLauncher } from "../adapter-supervisor.ts";
import { servingSince } from "./serving-since.ts";
import { SlackAdapter } from "./slack-adapter.ts";
import { diagnoseSlackStart } from "./start-failure.ts";

/**
 * The Slack adapter's launcher from config; undefined when Slack is not configured. A
 * configuration that cannot work (Socket Mode without its token, HTTP mode without the signing
 * secret) throws now, before anything starts; each try builds a fresh adapter.
 */
export function slackLauncher(runtime: Runtime): AdapterLauncher | undefined {
  const make = () => createSlackAdapter(runtime);
  if (!make()) return undefined;
  return {
    platform: "slack",
    diagnose: diagnoseSlackStart,
    create: async () => make()!,
  };
}

/** The Slack adapter from config; undefined when Slack is not configured. */
export function createSlackAdapter(runtime: Runtime): SlackAdapter | undefined {
  const { config, logger } = runtime;
  const slack = config.chat.slack;
  if (!slack.botToken) return undefined;
  if (slack.mode === "socket" && !slack.appToken) {
    throw new ConfigError(
      "Slack Socket Mode needs SLACK_APP_TOKEN (xapp-…), or set SLACK_MODE=http with SLACK_SIGNING_SECRET.",
    );
  }
  if (slack.mode === "http" && !slack.signingSecret) {
    throw new ConfigError("Slack HTTP mode needs SLACK_SIGNING_SECRET to verify Slack's requests.");
  }
  return new SlackAdapter({
    botToken: slack.botToken,
    mode: slack.mode,
    channels: slack.channels,
    requireMention: slack.requireMention,
    port: slack.port,
    usesUserGroups:
      slack.operatorGroup !== undefined ||
      Object.values(config.chat.rooms).some((room) => room.operatorGroup !== undefined) ||
      config.approvals.rules.some((rule) =>
        rule.approverGroups?.some((group) => group.kind === "slack_usergroup"),
      ),
    logger,
    servingSince: (now) => servingSince(runtime.db, now),
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    ...(slack.appToken ? { appToken: slack.appToken } : {}),
    ...(slack.signingSecret ? { signingSecret: slack.signingSecret } : {}),
  });
}
