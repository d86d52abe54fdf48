import { addHost, emptyInventory, type Inventory, type InventoryVars } from "./inventory.ts";

interface HostBlock {
  patterns: string[];
  options: Map<string, string>;
}

const KEYWORDS: Record<string, string> = {
  hostname: "ansible_host",
  port: "ansible_port",
  user: "ansible_user",
  identityfile: "ssh_identity_file",
  proxyjump: "ssh_proxy_jump",
};

/**
 * Parses an OpenSSH client config into hosts: every concrete alias of a `Host` line (no wildcards)
 * becomes a host. Options resolve like ssh does: first value wins across all matching blocks in file
 * order (so `Host *` defaults apply). `Match` blocks and `Include` are skipped with a warning.
 */
export function parseSshConfig(text: string): Inventory {
  const inventory = emptyInventory("ssh-config");
  const blocks: HostBlock[] = [];
  let current: HostBlock | null = null;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const match = /^(\S+?)(?:\s*=\s*|\s+)(.+)$/.exec(line);
    if (!match) return;
    const keyword = match[1]!.toLowerCase();
    const value = match[2]!.trim().replace(/^"(.*)"$/, "$1");
    if (keyword === "host") {
      current = { patterns: value.split(/\s+/), options: new Map() };
      blocks.push(current);
    } else if (keyword === "match") {
      current = null;
      inventory.warnings.push(`line ${index + 1}: Match block skipped`);
    } else if (keyword === "include") {
      inventory.warnings.push(
        `line ${index + 1}: Include ${value} not followed; import that file separately`,
      );
    } else if (current && !current.options.has(keyword)) {
      current.options.set(keyword, value);
    }
  });
  const aliases = new Set(blocks.flatMap((block) => block.patterns.filter((p) => !/[*?!]/.test(p))));
  for (const alias of aliases) {
    const vars: InventoryVars = {};
    for (const block of blocks) {
      if (!matches(block.patterns, alias)) continue;
      for (const [keyword, value] of block.options) {
        const key = KEYWORDS[keyword];
        if (key && !(key in vars)) vars[key] = key === "ansible_port" ? Number(value) : value;
      }
    }
    addHost(inventory, alias, vars);
  }
  return inventory;
}

function matches(patterns: string[], alias: string): boolean {
  let matched = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith("!");
    const glob = new RegExp(
      `^${(negated ? pattern.slice(1) : pattern)
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\?/g, ".")}$`,
    );
    if (glob.test(alias)) {
      if (negated) return false;
      matched = true;
    }
  }
  return matched;
}
