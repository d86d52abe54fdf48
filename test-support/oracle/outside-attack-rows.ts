import type { Risk } from "../../policy/risk.ts";

/**
 * The outside attack on issue 16 (attack-16, written without reading policy/corpus/ or the
 * tests): the commands that came back read_only but do something, with variants of each class,
 * and the label each intends. label-outside-attack.ts runs every row in the oracle's sandbox and
 * writes policy/corpus/outside-attack.ts, labelled by what the oracle observed where it can.
 */
export type AttackRow = readonly [command: string, intended: Risk, family: string];

const w = "/tmp/pwn";

export const OUTSIDE_ATTACK_ROWS: readonly AttackRow[] = [
  // sed read differently by GNU sed: a label ends at whitespace, `[/]` holds the delimiter.
  [`sed ':x e touch ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  [`sed ':a\te touch ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  [`sed ':x;e touch ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  [`sed 'b x e touch ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  [`sed -n 'bend e touch ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  [`sed 't x\te touch ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  ["sed 's/a[/]/touch \\/tmp\\/pwn/e' /etc/hostname", "config_mutation", "mini-language"],
  ["sed 's/[/]x/y/e' /etc/hostname", "config_mutation", "mini-language"],
  ["sed 's/^[/]*/touch \\/tmp\\/pwn/e' /etc/hostname", "config_mutation", "mini-language"],
  [`sed 's/a[/]/b/w ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  [`sed 's/[^/]/b/w ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  [`sed 's/[[:alpha:]/]/x/w ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  [`sed '/[/]/w ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  [`sed '\\%[%]%e touch ${w}' /etc/hostname`, "config_mutation", "mini-language"],
  // awk reads on after a newline that follows `,` `&&` `||` `\\`: the `>` is print's redirect.
  [`awk 'BEGIN{print 1,\n2 > "${w}"}'`, "config_mutation", "mini-language"],
  [`awk 'BEGIN{print 1 &&\n2 > "${w}"}'`, "config_mutation", "mini-language"],
  [`awk 'BEGIN{print 1 ||\n2 > "${w}"}'`, "config_mutation", "mini-language"],
  [`awk 'BEGIN{print 1 \\\n> "${w}"}'`, "config_mutation", "mini-language"],
  [`awk 'BEGIN{printf "%s",\n"x" > "${w}"}'`, "config_mutation", "mini-language"],
  [`awk 'BEGIN{print 1,\n\n2 >> "${w}"}'`, "config_mutation", "mini-language"],
  // Tools that join their arguments into one command line: `;` and newlines start another.
  ["nft list ruleset \\; flush ruleset", "config_mutation", "flags"],
  ["nft list ruleset ';' flush ruleset", "config_mutation", "flags"],
  ["nft 'list ruleset;flush ruleset'", "config_mutation", "flags"],
  ["nft list ruleset $'\\n' flush ruleset", "config_mutation", "flags"],
  ["nft list table inet filter \\; delete table inet filter", "config_mutation", "flags"],
  ["nft -a list tables \\; add table inet x", "config_mutation", "flags"],
  ["nft list ruleset $x", "config_mutation", "flags"],
  ["virsh list \\; destroy guest", "config_mutation", "flags"],
  ["virsh list --all ';' undefine guest", "config_mutation", "flags"],
  // An operand that sets state instead of printing it.
  ["date 010100002020", "config_mutation", "flags"],
  ["date -u 0101000070", "config_mutation", "flags"],
  ["date --iso-8601 010100002020", "config_mutation", "flags"],
  ["date $when", "config_mutation", "flags"],
  // Archive names with a colon are another host's: tar runs rsh to reach them.
  ["tar -tf localhost:/etc/hostname", "config_mutation", "flags"],
  ["tar -tvf root@localhost:/backup.tar", "config_mutation", "flags"],
  ["tar tzf 127.0.0.1:x.tgz", "config_mutation", "flags"],
  ["tar -tf $archive", "config_mutation", "flags"],
  // Arithmetic assignment operators other than `=`.
  ["echo $(( x <<= 1 ))", "config_mutation", "builtin"],
  ["echo $(( x >>= 2 ))", "config_mutation", "builtin"],
  ["echo $(( x |= 4 ))", "config_mutation", "builtin"],
  ["echo $(( x ^= 4 )) $(( x &= 1 ))", "config_mutation", "builtin"],
  ["[[ $(( PATH <<= 1 )) -gt 0 ]] && ls", "config_mutation", "builtin"],
  // Writes of a read-only-looking subcommand.
  ["systemd-analyze verify ssh.service", "config_mutation", "flags"],
];
