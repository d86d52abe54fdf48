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
];
