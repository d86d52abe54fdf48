import type { SyntaxNode } from "../bash-parser.ts";
import type { ProofContext, Verdict } from "./context.ts";
import { absolutePath } from "./devices.ts";
import { type ProofWord, proofWord } from "./proof-word.ts";

/** Devices that never end: reading one to its end takes all the memory a buffering tool can get. */
const ENDLESS = /^\/dev\/(zero|u?random|full)$/;

/** Tools that read only as many bytes as the command says, with the option that says it. */
const BOUNDED_READERS: Readonly<Record<string, RegExp>> = {
  head: /^(-[A-Za-z]*c.*|--bytes(=.*)?)$/,
  dd: /^count=[0-9]+[a-zA-Z]*$/,
  od: /^(-[A-Za-z]*N.*|--read-bytes(=.*)?)$/,
  xxd: /^(-l|-len|-l[0-9].*)$/,
  hexdump: /^(-[A-Za-z]*n.*|--length(=.*)?)$/,
  cmp: /^(-[A-Za-z]*n.*|--bytes(=.*)?)$/,
  read: /^-[A-Za-z]*[nN].*$/,
};

/** Tools that pass bytes on as they read them: cut off by `| head -c N`, they stop. */
const STREAMING = new Set(["cat", "tr", "base64", "od", "xxd", "hexdump", "fold"]);

export function isEndless(word: ProofWord): boolean {
  return word.static && ENDLESS.test(absolutePath(word.value));
}

/**
 * Why a command reads an endless device without a bound: `sort /dev/zero`, `cat /dev/zero | sort`,
 * `tail < /dev/urandom` never end and grow without limit. Proven: a reader that counts bytes
 * (`head -c 16 /dev/urandom`, `dd … count=1`, `od -N 8`), or a streaming tool whose output the
 * next stage of the pipeline cuts (`tr -dc a-z < /dev/urandom | head -c 16`).
 */
export function unboundedRead(name: string, args: readonly ProofWord[], ctx: ProofContext): Verdict {
  const first = ctx.stdin?.[0];
  const endless =
    args.find(isEndless) ?? (first?.kind === "file" && isEndless(first.word) ? first.word : undefined);
  if (!endless) return null;
  const bound = BOUNDED_READERS[name];
  if (bound && args.some((arg) => arg.static && bound.test(arg.value))) return null;
  if (ctx.outputCut && STREAMING.has(name)) return null;
  return (
    `\`${name}\` reads \`${endless.value}\`, which never ends, without a limit (it runs until killed and can ` +
    "take all the memory); read a number of bytes (`head -c N`, `dd count=N`) or cut its output (`| head -c N`)"
  );
}

/** Whether a pipeline stage's output goes straight into `head -c N`, which stops it after N bytes. */
export function cutByNextStage(next: SyntaxNode | undefined, source: string): boolean {
  if (next?.type !== "command") return false;
  const words = next.children
    .filter((child) => child.field === "name" || child.field === "argument")
    .map((child) => proofWord(child.type === "command_name" ? (child.children[0] ?? child) : child, source));
  const [head, ...args] = words;
  return (
    head?.static === true &&
    head.value === "head" &&
    args.some((arg) => arg.static && BOUNDED_READERS.head?.test(arg.value))
  );
}
