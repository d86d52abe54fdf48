/**
 * Inputs shaped to make a backtracking pattern quadratic or worse: long runs of what a quantifier
 * accepts, a rule's anchor repeated with no valid ending, unclosed quotes and blocks. Used by
 * linear.test.ts (every rule must get through each of them) and by the redaction bench.
 */
export const PATHOLOGICAL_SHAPES: Readonly<Record<string, string>> = {
  "one long word": "a".repeat(4096),
  "key=value with no end": "password=".repeat(512),
  "key: key: key:": "key: ".repeat(800),
  "url userinfo with no host": "://a:".repeat(800),
  "at signs": "@a".repeat(2048),
  "private key BEGIN with no END": "-----BEGIN PRIVATE KEY-----".repeat(150),
  "base64 lines with no END": "AAAA\n".repeat(800),
  "tabs then a letter": `${"\t".repeat(2000)}x`,
  "unclosed quotes": '"'.repeat(4096),
  "jwt prefix": "eyJ".repeat(1365),
  "base64 PEM prefix": "LS0tLS1CRUdJTi".repeat(290),
  "crypt prefix": "$6$".repeat(1365),
  "secret flag prefix": "--password-".repeat(372),
  "curl -u with no credential": "curl -u ".repeat(512),
  "curl header with no value": 'curl -H "Authorization: '.repeat(170),
  "PuTTY private lines": "Private-Lines: 1\n".repeat(240),
  "redis acl user": "user x ".repeat(585),
  "kubernetes secret data": `kind: Secret\ndata:\n${"  k: v\n".repeat(600)}`,
  "proxmox token ids": "a@b!c=".repeat(680),
  "token value keys": "value │ ".repeat(455),
  "single quotes": "'a".repeat(2048),
  "equals signs": "=".repeat(4096),
  colons: ":".repeat(4096),
  "long label": `${"Root password ".repeat(290)}: x`,
};
