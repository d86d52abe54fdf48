import type { ObservedRow } from "./oracle-observed.ts";

/**
 * The outside attack on issue 16 (attack-16, written without reading this folder or the tests):
 * commands that came back read_only but write, run programs, change state, reach devices or send
 * local data away, with variants of each class. Labelled by what the execution oracle observed
 * when each row ran in its sandbox, or, where the sandbox cannot show the effect, by the label the
 * row intends (`basis` says which). Written by test-support/oracle/label-outside-attack.ts from
 * test-support/oracle/outside-attack-rows.ts; asserted as a floor. Still the team's own corpus.
 */
export const OUTSIDE_ATTACK_CORPUS: readonly ObservedRow[] = [
  [
    "sed ':x e touch /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "observed: opens for writing /tmp/pwn; utimensat /tmp/pwn",
  ],
  [
    "sed ':a\te touch /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "observed: opens for writing /tmp/pwn; utimensat /tmp/pwn",
  ],
  [
    "sed ':x;e touch /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "observed: opens for writing /tmp/pwn; utimensat /tmp/pwn",
  ],
  [
    "sed 'b x e touch /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "intended (the oracle saw nothing)",
  ],
  [
    "sed -n 'bend e touch /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "intended (the oracle saw nothing)",
  ],
  [
    "sed 't x\te touch /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "intended (the oracle saw nothing)",
  ],
  [
    "sed 's/a[/]/touch \\/tmp\\/pwn/e' /etc/hostname",
    "config_mutation",
    "mini-language",
    "intended (the oracle saw nothing)",
  ],
  ["sed 's/[/]x/y/e' /etc/hostname", "config_mutation", "mini-language", "intended (the oracle saw nothing)"],
  [
    "sed 's/^[/]*/touch \\/tmp\\/pwn/e' /etc/hostname",
    "config_mutation",
    "mini-language",
    "observed: opens for writing /tmp/pwnvm; utimensat /tmp/pwnvm",
  ],
  [
    "sed 's/a[/]/b/w /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "observed: truncates /tmp/pwn",
  ],
  [
    "sed 's/[^/]/b/w /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "observed: truncates /tmp/pwn",
  ],
  [
    "sed 's/[[:alpha:]/]/x/w /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "observed: truncates /tmp/pwn",
  ],
  ["sed '/[/]/w /tmp/pwn' /etc/hostname", "config_mutation", "mini-language", "observed: truncates /tmp/pwn"],
  [
    "sed '\\%[%]%e touch /tmp/pwn' /etc/hostname",
    "config_mutation",
    "mini-language",
    "intended (the oracle saw nothing)",
  ],
  [
    "awk 'BEGIN{print 1,\n2 > \"/tmp/pwn\"}'",
    "config_mutation",
    "mini-language",
    "observed: truncates /tmp/pwn",
  ],
  [
    "awk 'BEGIN{print 1 &&\n2 > \"/tmp/pwn\"}'",
    "config_mutation",
    "mini-language",
    "observed: truncates /tmp/pwn",
  ],
  [
    "awk 'BEGIN{print 1 ||\n2 > \"/tmp/pwn\"}'",
    "config_mutation",
    "mini-language",
    "observed: truncates /tmp/pwn",
  ],
  [
    "awk 'BEGIN{print 1 \\\n> \"/tmp/pwn\"}'",
    "config_mutation",
    "mini-language",
    "observed: truncates /tmp/pwn",
  ],
  [
    'awk \'BEGIN{printf "%s",\n"x" > "/tmp/pwn"}\'',
    "config_mutation",
    "mini-language",
    "observed: truncates /tmp/pwn",
  ],
  [
    "awk 'BEGIN{print 1,\n\n2 >> \"/tmp/pwn\"}'",
    "config_mutation",
    "mini-language",
    "observed: opens for writing /tmp/pwn",
  ],
  ["nft list ruleset \\; flush ruleset", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["nft list ruleset ';' flush ruleset", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["nft 'list ruleset;flush ruleset'", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["nft list ruleset $'\\n' flush ruleset", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  [
    "nft list table inet filter \\; delete table inet filter",
    "config_mutation",
    "flags",
    "intended (the oracle saw nothing)",
  ],
  [
    "nft -a list tables \\; add table inet x",
    "config_mutation",
    "flags",
    "intended (the oracle saw nothing)",
  ],
  ["nft list ruleset $x", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["virsh list \\; destroy guest", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["virsh list --all ';' undefine guest", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["date 010100002020", "config_mutation", "flags", "observed: clock_settime"],
  ["date -u 0101000070", "config_mutation", "flags", "observed: clock_settime"],
  ["date --iso-8601 010100002020", "config_mutation", "flags", "observed: clock_settime"],
  ["date $when", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["tar -tf localhost:/etc/hostname", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["tar -tvf root@localhost:/backup.tar", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["tar tzf 127.0.0.1:x.tgz", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["tar -tf $archive", "config_mutation", "flags", "intended (the oracle saw nothing)"],
  ["echo $(( x <<= 1 ))", "config_mutation", "builtin", "intended (the oracle saw nothing)"],
  ["echo $(( x >>= 2 ))", "config_mutation", "builtin", "intended (the oracle saw nothing)"],
  ["echo $(( x |= 4 ))", "config_mutation", "builtin", "intended (the oracle saw nothing)"],
  ["echo $(( x ^= 4 )) $(( x &= 1 ))", "config_mutation", "builtin", "intended (the oracle saw nothing)"],
  ["[[ $(( PATH <<= 1 )) -gt 0 ]] && ls", "config_mutation", "builtin", "intended (the oracle saw nothing)"],
  [
    "systemd-analyze verify ssh.service",
    "config_mutation",
    "flags",
    "observed: mkdir /tmp/systemd-analyze-7mwIjz",
  ],
];
