import type { Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import { hasFlag } from "./grant-helpers.ts";

/**
 * What runs outside the jail by name (`ss -p`, `netstat -p`, `lsof`, `fuser`) has the host's
 * network: a host name it resolves is a DNS query leaving the machine (`ss -tp evil.example`,
 * `lsof -i @evil.example`, `fuser -n tcp 22,evil.example`, and every reverse lookup `lsof` and
 * `netstat` make without `-n`). These checks keep those runs to numeric addresses and one pass
 * (check-options.ts holds every unjailed run to fixed words): nothing they do reaches the network,
 * and nothing runs until the timeout.
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const PREFIX_LENGTH = /^\d{1,3}$/;

/** An IPv4 or IPv6 address literal: text no resolver is ever asked about. */
export function isAddressLiteral(text: string): boolean {
  return IPV4.test(text) || isIpv6(text);
}

function isIpv6(text: string): boolean {
  if (!text.includes(":")) return false;
  let rest = text;
  const lastColon = rest.lastIndexOf(":");
  const tail = rest.slice(lastColon + 1);
  if (tail.includes(".")) {
    if (!IPV4.test(tail)) return false;
    // an embedded IPv4 address (`::ffff:192.0.2.1`) stands for the last two groups
    rest = `${rest.slice(0, lastColon + 1)}0:0`;
  }
  const halves = rest.split("::");
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === "" ? [] : half.split(":")));
  if (!groups.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return false;
  return halves.length === 2 ? groups.length <= 7 : groups.length === 8;
}

/** `ADDR`, `ADDR/LEN`, `[IPV6]`: an address (or prefix) literal. */
function isNumericHost(text: string): boolean {
  const bracketed = /^\[(.*)\](.*)$/.exec(text);
  const [address, suffix] = bracketed ? [bracketed[1] ?? "", bracketed[2] ?? ""] : splitPrefix(text);
  if (bracketed && suffix !== "" && !/^\/\d{1,3}$/.test(suffix)) return false;
  if (!bracketed && suffix !== "" && !PREFIX_LENGTH.test(suffix)) return false;
  return address === "*" || isAddressLiteral(address);
}

function splitPrefix(text: string): [string, string] {
  const slash = text.indexOf("/");
  return slash < 0 ? [text, ""] : [text.slice(0, slash), text.slice(slash + 1)];
}

/** A port by number or by service name (`/etc/services`, read locally), or any port. */
const PORT = /^(\d{1,5}|\*|[A-Za-z][A-Za-z0-9_-]*)$/;

/** ss's host condition: `ADDR`, `ADDR:PORT`, `[IPV6]:PORT`, `*:PORT`, `:PORT`, `ADDR/LEN`. */
function isNumericHostAndPort(text: string): boolean {
  if (isNumericHost(text)) return true;
  const bracketed = /^(\[[^\]]*\](?:\/\d{1,3})?):([^:]*)$/.exec(text);
  if (bracketed) return isNumericHost(bracketed[1] ?? "") && PORT.test(bracketed[2] ?? "");
  const colon = text.lastIndexOf(":");
  if (colon < 0) return false;
  const host = text.slice(0, colon);
  const port = text.slice(colon + 1);
  if (!PORT.test(port)) return false;
  return host === "" || host === "*" || (IPV4.test(splitPrefix(host)[0]) && isNumericHost(host));
}

/** The words of ss's filter language that name no host (keywords, operators). */
const SS_FILTER_WORDS = new Set([
  "dst",
  "src",
  "dport",
  "sport",
  "autobound",
  "and",
  "or",
  "not",
  "!",
  "&",
  "&&",
  "|",
  "||",
  "=",
  "==",
  "!=",
  "eq",
  "ne",
  "neq",
  "gt",
  "lt",
  "ge",
  "le",
  ">",
  "<",
  ">=",
  "<=",
]);
/** State names are keywords only right after `state`/`exclude`; anywhere else ss resolves them as hosts. */
const SS_STATE_SELECTORS = new Set(["state", "exclude", "excl"]);
const SS_STATES = new Set([
  "all",
  "connected",
  "synchronized",
  "bucket",
  "big",
  "established",
  "syn-sent",
  "syn-recv",
  "fin-wait-1",
  "fin-wait-2",
  "time-wait",
  "closed",
  "close-wait",
  "last-ack",
  "listening",
  "closing",
]);
/** Filter words whose next word is an interface, a mark or a cgroup path: never resolved as a host. */
const SS_FILTER_NAMED = new Set(["dev", "fwmark", "cgroup"]);

/** The words after the options (`-f inet`, `-A tcp` take the next word as their value). */
function filterWords(args: readonly ProofWord[], valued: ReadonlySet<string>): ProofWord[] {
  const words: ProofWord[] = [];
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (!optionsEnded && arg.value === "--") optionsEnded = true;
    else if (!optionsEnded && arg.value.startsWith("-") && arg.value !== "-") {
      if (valued.has(arg.value)) i++;
    } else words.push(arg);
  }
  return words;
}

/**
 * `ss -p` (outside the jail): its filter may name only addresses. A bare word the filter language
 * does not know is a host condition (`ss -tp evil.example` asks DNS for it).
 */
export function ssOutsideResolvesNothing(args: readonly ProofWord[]): Verdict {
  const tokens = filterWords(args, new Set(["-f", "-A", "--family", "--query"])).flatMap((word) =>
    word.value
      .replace(/[()]/g, " ")
      .split(/\s+/)
      .filter((token) => token !== ""),
  );
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (SS_STATE_SELECTORS.has(token)) {
      while (SS_STATES.has(tokens[i + 1] ?? "")) i++;
      continue;
    }
    if (SS_FILTER_WORDS.has(token)) continue;
    if (SS_FILTER_NAMED.has(token)) {
      i++;
      continue;
    }
    if (isNumericHostAndPort(token)) continue;
    return `\`ss -p\` runs outside the jail: \`${token}\` in its filter would be looked up as a host name (a DNS query from the host); filter by address (\`dst 192.0.2.1\`, \`dport = :22\`), or drop -p to run it jailed`;
  }
  return null;
}

/** `netstat -p` (outside the jail): numeric (`-n`), one pass (no `-c`). */
export function netstatOutsideResolvesNothing(args: readonly ProofWord[]): Verdict {
  if (!hasFlag(args, "p")) return null;
  if (!args.some((arg) => /^-[A-Za-z]+$/.test(arg.value) && optionBundle(arg.value, "").flags.includes("n")))
    return "`netstat -p` runs outside the jail: without -n it looks up every peer's name (DNS queries from the host); add -n (`netstat -tulpn`), or use `ss -tulpn`";
  return null;
}

/** lsof's `+` options that only choose what to list or how to print it (`+L1`, `+c 15`). */
const LSOF_PLUS_OPTIONS = /^\+(L\d*|c\d*|w|f[cfgGn]*)$/;
/** lsof's options that take a value; lsof leaves a next word that starts with `-` or `+` alone. */
const LSOF_VALUED = "iupcgdFs";

/**
 * `lsof` (outside the jail): numeric (`-n`, else every socket's peer is looked up), `-i` naming
 * addresses only (`@evil.example` is resolved), no repeat mode (`-r`, `+r`: runs until stopped),
 * no tree walk (`+D /` stats every file of every mount). Options whose value is optional
 * (`-i`, `-g`, `-s`, `-F`) must carry it attached or as a word that is not an option: lsof reads
 * `-i -r` as `-i` and `-r`.
 */
export function lsofOutsideResolvesNothing(args: readonly ProofWord[]): Verdict {
  let numeric = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (arg.value === "--") {
      const operand = args[i + 1];
      if (operand) return pathOperand("lsof", operand.value, "select by -i, -p, -u or -c");
      break;
    }
    if (arg.value.startsWith("+")) {
      if (!LSOF_PLUS_OPTIONS.test(arg.value))
        return `\`lsof ${arg.value}\` is not one of the options proven to only list outside the jail (\`+r\` repeats until stopped, \`+D\` walks a whole tree, \`+m\`/\`+M\` reach other files and rpcbind); ask for it`;
      if (arg.value === "+c") i++; // its width is the next word
      continue;
    }
    if (!arg.value.startsWith("-") || arg.value === "-")
      return pathOperand("lsof", arg.value, "select by -i, -p, -u or -c");
    const bundle = optionBundle(arg.value, LSOF_VALUED);
    if (bundle.flags.includes("n")) numeric = true;
    if (bundle.flags.includes("r")) return "`lsof -r` repeats until stopped, outside the jail; run it once";
    if (bundle.valued === undefined) continue;
    const next = args[i + 1]?.value;
    const value = bundle.value !== "" ? bundle.value : next !== undefined && !/^[-+]/.test(next) ? next : "";
    if (bundle.value === "" && next !== undefined && /^[-+]/.test(next) && next !== "--")
      return `\`lsof -${bundle.valued} ${next}\`: lsof takes \`${next}\` as an option of its own, not as the value; attach the value (\`-${bundle.valued}TCP\`) or put it first`;
    if (bundle.value === "" && value !== "") i++;
    if (bundle.valued === "i") {
      const host = /@(\[[^\]]*\]|[^:]*)/.exec(value)?.[1];
      if (host !== undefined && !isNumericHost(host))
        return `\`lsof -i ${value}\` names a host, which lsof resolves (a DNS query from the host, since lsof runs outside the jail); name it by address (\`-i @192.0.2.1:22\`)`;
    }
  }
  if (!numeric)
    return "`lsof` runs outside the jail: without -n it looks up the peer of every socket it lists (DNS queries from the host); add -n (`lsof -nP -i :22`)";
  return null;
}

/**
 * Outside the jail a tool that looks up a path walks into what it names: an automount mounts
 * (`/net/host`), a dead NFS server hangs the run.
 */
function pathOperand(tool: string, path: string, instead: string): string {
  return `\`${tool} ${path}\` would look up that path outside the jail (an automount mounts, a dead NFS mount hangs); ${instead}, or ask for it`;
}

/**
 * One word of short options read as the tool reads it: flags up to the first option that takes
 * a value, which takes the rest of the word (`-cn` is `-c n`, not `-n`).
 */
export function optionBundle(
  word: string,
  valued: string,
): { flags: string; valued?: string; value: string } {
  if (word.startsWith("--")) return { flags: "", value: "" };
  let flags = "";
  for (let i = 1; i < word.length; i++) {
    const letter = word[i] as string;
    if (valued.includes(letter)) return { flags, valued: letter, value: word.slice(i + 1) };
    flags += letter;
  }
  return { flags, value: "" };
}

/** `fuser` (outside the jail): a port's remote host (`22,evil.example/tcp`) must be an address. */
export function fuserOutsideResolvesNothing(args: readonly ProofWord[]): Verdict {
  const ports = args.some((arg, i) => {
    const bundle = optionBundle(arg.value, "n");
    const space = bundle.value !== "" ? bundle.value : (args[i + 1]?.value ?? "");
    return (
      (arg.value.startsWith("-") && bundle.valued === "n" && /^(tcp|udp)$/.test(space)) ||
      /^--namespace=(tcp|udp)$/.test(arg.value)
    );
  });
  for (const word of filterWords(args, new Set(["-n", "--namespace"]))) {
    if (!ports && !/\/(tcp|udp)$/.test(word.value))
      return pathOperand("fuser", word.value, "ask about a port (`fuser -v -n tcp 22`)");
    const name = word.value.replace(/\/(tcp|udp)$/, "");
    const [, remoteHost] = name.split(",");
    if (remoteHost !== undefined && remoteHost !== "" && !isNumericHost(remoteHost))
      return `\`fuser ${word.value}\` names a remote host, which fuser resolves (a DNS query from the host, since fuser runs outside the jail); name it by address (\`22,192.0.2.1\`)`;
  }
  return null;
}
