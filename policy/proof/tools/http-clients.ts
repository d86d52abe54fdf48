import { getActs } from "../http-get.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { toNowhere } from "../tool-spec.ts";

/** Network inspection and HTTP reads (GET/HEAD to http/https only: other schemes can write to services). */

/**
 * Without a scheme curl guesses the protocol from the host's first label (`dict.x:6379/flushall`
 * speaks DICT, a Redis command line; `ftp.`, `ldap.`, `imap.`, `pop3.`, `smtp.` likewise), and
 * `--resolve` sends any such name to any address: only http(s), or a host that guesses http.
 */
const GUESSED_PROTOCOL = /^(dict|ftp|ldap|imap|pop3|smtp|gopher|telnet|tftp|mqtt|rtsp|scp|sftp|smb|file)\./i;
const URL_OK = (word: ProofWord) =>
  word.static &&
  (/^https?:\/\/[^\s]+$/.test(word.value) ||
    (!word.value.includes("://") && !word.value.startsWith("-") && !GUESSED_PROTOCOL.test(word.value)));

/** Every operand is a fixed http(s) address whose GET only reads (http-get.ts). */
function urlsOnly(skipValues: readonly string[]) {
  return (args: readonly ProofWord[]) => {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as ProofWord;
      if (arg.static && arg.value.startsWith("-")) {
        if (skipValues.includes(arg.value)) i++;
        continue;
      }
      if (!URL_OK(arg)) return `\`${arg.raw}\` is not a fixed http(s) address`;
      const acts = getActs(arg.value);
      if (acts) return acts;
    }
    return null;
  };
}

const CURL_VALUED = ["-m", "-w", "-o", "-A", "-e", "-u", "-X", "-r"];
const CURL_LONG_VALUED = [
  "--max-time",
  "--connect-timeout",
  "--write-out",
  "--output",
  "--user-agent",
  "--referer",
  "--user",
  "--request",
  "--retry",
  "--retry-delay",
  "--max-redirs",
  "--resolve",
  "--cacert",
  "--range",
  "--noproxy",
];

/** HTTP reads (GET/HEAD to http/https only: other schemes can write to services) and TLS inspection. */
export const HTTP_CLIENT_TOOLS: Record<string, ToolSpec> = {
  curl: {
    network: true,
    // Not -L/--location: a redirect goes to an address no proof has read (a GET that acts).
    flags: "sSfIikv46#",
    valued: "mwoAeuXrx",
    long: [
      "--silent",
      "--show-error",
      "--fail",
      "--head",
      "--include",
      "--insecure",
      "--verbose",
      "--compressed",
      "--http1.1",
      "--http2",
      "--ipv4",
      "--ipv6",
      "--fail-with-body",
      "--no-progress-meter",
    ],
    longValued: CURL_LONG_VALUED,
    values: {
      "-o": toNowhere,
      "--output": toNowhere,
      "-X": (v) => v === "GET" || v === "HEAD",
      "--request": (v) => v === "GET" || v === "HEAD",
      "-w": (v) => !/%(output|header)|@/.test(v),
      "--write-out": (v) => !/%(output|header)|@/.test(v),
      "-x": () => false,
    },
    check: urlsOnly([...CURL_VALUED, ...CURL_LONG_VALUED]),
  },
  wget: {
    network: true,
    flags: "qSv46",
    valued: "OTt",
    long: ["--quiet", "--spider", "--server-response", "--no-check-certificate", "--no-hsts", "--no-verbose"],
    longValued: ["--timeout", "--tries", "--output-document", "--max-redirect"],
    values: { "-O": toNowhere, "--output-document": toNowhere, "--max-redirect": (v) => v === "0" },
    check: (args) => {
      const stdout = args.some(
        (a) =>
          a.static &&
          (/^-[qSv46]*O-?$/.test(a.value) ||
            a.value === "--spider" ||
            a.value.startsWith("--output-document")),
      );
      if (!stdout) return "wget without -O - or --spider saves a file";
      if (!args.some((a) => a.static && (a.value === "--max-redirect=0" || a.value === "--max-redirect")))
        return "wget follows redirects to addresses no proof has read (a GET there may act); add --max-redirect=0";
      const https = args.some((a) => a.static && a.value.startsWith("https://"));
      if (https && !args.some((a) => a.value === "--no-hsts"))
        return "wget over https records HSTS state in ~/.wget-hsts; add --no-hsts";
      return urlsOnly(["-O", "-T", "-t", "--timeout", "--tries", "--max-redirect"])(args);
    },
  },
  openssl: {
    sub: {
      x509: {
        singleDashLong: true,
        long: [
          "-noout",
          "-enddate",
          "-startdate",
          "-dates",
          "-subject",
          "-issuer",
          "-text",
          "-fingerprint",
          "-serial",
          "-checkend",
          "-ext",
          "-purpose",
          "-sha256",
          "-email",
          "-modulus",
        ],
        longValued: ["-in", "-inform", "-nameopt", "-checkend", "-ext"],
      },
      // Whatever s_client reads it sends to the server: a request, even when its text is in the command.
      s_client: {
        network: true,
        stdinIsRequest: true,
        singleDashLong: true,
        long: ["-showcerts", "-brief", "-quiet", "-tls1_2", "-tls1_3", "-ign_eof"],
        longValued: ["-connect", "-servername", "-starttls", "-CAfile", "-verify_return_error_no"],
      },
      version: { flags: "a" },
      verify: { singleDashLong: true, longValued: ["-CAfile", "-untrusted"] },
    },
  },
};
