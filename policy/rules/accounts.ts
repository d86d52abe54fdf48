import { finding } from "../command-view.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/** Account changes; the ones that lock someone out (or in) need the typed phrase. */
export const ACCOUNT_RULES: readonly CommandRule[] = [
  {
    names: ["passwd"],
    what: "changes a password",
    risk: "config_mutation",
    flags: {
      readOnly: ["-S", "--status"],
      // No password, locked, or expired: the account's owner (root over ssh included) is locked out.
      destructive: ["-d", "--delete", "-l", "--lock", "-e", "--expire"],
    },
    examples: [
      ["passwd -S root", "read_only"],
      ["passwd bob", "config_mutation"],
      ["passwd -d root", "destructive"],
      ["passwd -l root", "destructive"],
    ],
  },
  {
    names: ["usermod"],
    what: "changes an account",
    risk: "config_mutation",
    flags: { destructive: ["-L", "--lock", "-e", "--expiredate", "-p", "--password"] },
    refine: (view) =>
      view.args.some((arg) => /(nologin|\/false)$/.test(arg.value))
        ? [
            finding(
              "destructive",
              `${quoteSegment(view.text)} takes the account's login shell away (destructive)`,
            ),
          ]
        : [],
    examples: [
      ["usermod -aG docker bob", "config_mutation"],
      ["usermod -L root", "destructive"],
      ["usermod -s /usr/sbin/nologin root", "destructive"],
    ],
  },
  {
    names: ["chage"],
    what: "changes password ageing",
    risk: "config_mutation",
    flags: { readOnly: ["-l", "--list"], destructive: ["-E", "--expiredate", "-d", "--lastday"] },
    examples: [
      ["chage -l root", "read_only"],
      ["chage -M 90 bob", "config_mutation"],
      ["chage -E 0 root", "destructive"],
    ],
  },
];
