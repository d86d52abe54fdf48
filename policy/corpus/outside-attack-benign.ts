/**
 * Commands from the outside attack on issue 16 that the execution oracle ran and saw do nothing
 * but read, beside the attacks that look like them: closing a class must not close these.
 */
export const OUTSIDE_ATTACK_BENIGN: readonly string[] = [
  "sed -n ':a;N;$!ba;p' /etc/hostname",
  "sed 'bend;:end' /etc/hostname",
  "sed ':a;N;$!ba;s/\\n/ /g' /etc/hostname",
  "sed -n '/start/,/end/{/end/!p}' /etc/hostname",
  "sed 's/[0-9]/#/g' /etc/hostname",
  "sed 'a\\\nfoo' /etc/hostname",
  "awk '{print $1}' /etc/hostname",
  "awk -F: '$3 > 999 {print $1}' /etc/passwd",
  "awk 'BEGIN{while ((getline l < \"/etc/hostname\") > 0) print l}'",
  "awk '{ x = $1 > $2 ? 1 : 2; print x }' /etc/hostname",
  "awk 'NR > 1 {\n  print $1,\n    $2\n}' /etc/passwd",
  "nft list ruleset",
  "nft -a list table inet filter",
  "virsh list --all",
  "date +%s",
  "date -d @0 +%F",
  "date -ud @0",
  "date --date=yesterday +%F",
  "date --rfc-3339 seconds",
  "tar -tf /tmp/x.tar",
  "tar tzvf /tmp/x.tgz",
  "echo $(( x <= 1 )) $(( x == 1 )) $(( 1 << 2 )) $(( x >= 1 && y != 2 ))",
  "systemd-analyze blame",
];
