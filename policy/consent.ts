/**
 * Reading an operator's chat reply as consent. Whole words and phrases only ("yes" is not in
 * "yesterday", "confirm" is not in "confirmed"), negation aware ("don't", "haven't", "can't
 * confirm", curly apostrophes), and denial wins over assent when a message holds both.
 *
 * Typed confirmation grammar (the only consent that can release a destructive command):
 *   confirm <action> <target-slug>        e.g. `confirm destroy lxc:old-nextcloud`
 * action: a word (letters, digits, `-`, `_`); target-slug: `<type>:<name>`, or `local` for the
 * machine oikos runs on.
 */

export type Consent =
  | { kind: "assent" }
  | { kind: "denial" }
  | { kind: "typed_confirmation"; action: string; target: string }
  | { kind: "none" };

const NEGATORS = new Set([
  "not",
  "no",
  "never",
  "don't",
  "dont",
  "do not",
  "doesn't",
  "doesnt",
  "didn't",
  "didnt",
  "can't",
  "cant",
  "cannot",
  "won't",
  "wont",
  "haven't",
  "havent",
  "hasn't",
  "hasnt",
  "hadn't",
  "isn't",
  "isnt",
  "aren't",
  "arent",
  "wasn't",
  "wasnt",
  "weren't",
  "shouldn't",
  "shouldnt",
  "wouldn't",
  "wouldnt",
  "couldn't",
  "couldnt",
  "mustn't",
  "neither",
  "nor",
]);

/** Assent words and phrases, as token sequences. */
const ASSENT_PHRASES = [
  "yes",
  "yep",
  "yeah",
  "yup",
  "ya",
  "yas",
  "y",
  "ok",
  "okay",
  "k",
  "kk",
  "sure",
  "approve",
  "approved",
  "go",
  "go ahead",
  "proceed",
  "do it",
  "lgtm",
  "ship it",
  "sounds good",
  "looks good",
  "go for it",
  "confirm",
  "confirmed",
  "please do",
  "make it so",
  "execute",
  "run it",
  "go on",
  "continue",
  "carry on",
  "let's do it",
  "lets do it",
  "let's go",
  "alright",
  "all right",
  "fine",
  "accept",
  "accepted",
  "granted",
  "agreed",
  "agree",
  "affirmative",
  "absolutely",
  "definitely",
  "of course",
  "green light",
  "go go",
  "👍",
  "✅",
  "✔️",
  "🚀",
  "no problem",
  "no worries",
  "no objections",
  "no objection",
  "why not",
  "allowed",
  "permission granted",
  "you may",
  "you can",
  "send it",
  "merge it",
  "apply it",
  "yes please",
];

/** Denial words and phrases that count anywhere in a clause. */
const DENIAL_ANYWHERE = [
  "cancel",
  "abort",
  "deny",
  "denied",
  "reject",
  "rejected",
  "veto",
  "nope",
  "nah",
  "never mind",
  "nevermind",
  "not yet",
  "not now",
  "hold on",
  "hold off",
  "hang on",
  "no way",
  "negative",
  "belay that",
  "scratch that",
  "don't do it",
  "do not do it",
  "👎",
  "❌",
  "🛑",
  "✋",
];

/** Words that deny only when they open a clause ("no, wait", "stop!"), not as verbs in an instruction. */
const DENIAL_AT_CLAUSE_START = ["no", "n", "stop", "wait", "halt", "never", "don't", "do not", "dont"];

/** Phrases that look like negation or denial but are not about the action. */
const NEUTRAL_PHRASES = [
  "don't worry",
  "dont worry",
  "do not worry",
  "not risky",
  "no risk",
  "not a big deal",
  "no rush",
  "no hurry",
  "not sure why",
];

const CONDITIONALS = new Set(["if", "unless", "only if", "provided", "assuming"]);

const TYPED =
  /(^|[\s,;:!.])confirm\s+([a-z][a-z0-9_-]*)\s+([a-z][a-z0-9_-]*:[A-Za-z0-9][A-Za-z0-9._/@-]*|local)(?=$|[\s,;!.?])/i;

function normalise(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u2018\u2019\u201B\u02BC\u2032`´]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .toLowerCase();
}

/** Splits into clauses (on , ; . ! ? and newlines) and each clause into word tokens. */
function clauses(text: string): string[][] {
  return text
    .split(/[,;.!?\n]+|\s[-–—]\s/)
    .map(
      (clause) =>
        clause.match(/[a-z0-9']+(?:-[a-z0-9']+)*|\p{Extended_Pictographic}\uFE0F?|[✅✔❌✋]\uFE0F?/gu) ?? [],
    )
    .map((tokens) => tokens.map((token) => token.replace(/^'+|'+$/g, "")).filter((token) => token !== ""))
    .filter((tokens) => tokens.length > 0);
}

function phraseAt(tokens: string[], index: number, phrase: string): boolean {
  const words = phrase.split(" ");
  for (let i = 0; i < words.length; i++) if (tokens[index + i] !== words[i]) return false;
  return true;
}

function negatedAt(tokens: string[], index: number): boolean {
  for (let back = 1; back <= 3 && index - back >= 0; back++) {
    const token = tokens[index - back] as string;
    const pair = index - back - 1 >= 0 ? `${tokens[index - back - 1]} ${token}` : "";
    if (NEGATORS.has(token) || NEGATORS.has(pair)) return true;
  }
  return false;
}

interface ClauseReading {
  assent: boolean;
  denial: boolean;
  conditional: boolean;
}

function readClause(tokens: string[]): ClauseReading {
  const reading: ClauseReading = { assent: false, denial: false, conditional: false };
  const consumed = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    if (CONDITIONALS.has(tokens[i] as string)) reading.conditional = true;
  }
  // Assent phrases first (longest first) so "no problem" is not read as "no".
  const assentByLength = [...ASSENT_PHRASES].sort((a, b) => b.split(" ").length - a.split(" ").length);
  const denialByLength = [...DENIAL_ANYWHERE].sort((a, b) => b.split(" ").length - a.split(" ").length);
  for (let i = 0; i < tokens.length; i++) {
    const neutral = NEUTRAL_PHRASES.find((phrase) => phraseAt(tokens, i, phrase));
    if (neutral) for (let j = 0; j < neutral.split(" ").length; j++) consumed.add(i + j);
  }
  for (let i = 0; i < tokens.length; i++) {
    if (consumed.has(i)) continue;
    const denial = denialByLength.find((phrase) => phraseAt(tokens, i, phrase));
    if (denial) {
      if (!negatedAt(tokens, i)) reading.denial = true;
      for (let j = 0; j < denial.split(" ").length; j++) consumed.add(i + j);
      continue;
    }
    const assent = assentByLength.find((phrase) => phraseAt(tokens, i, phrase));
    if (assent) {
      if (negatedAt(tokens, i)) reading.denial = true;
      else reading.assent = true;
      for (let j = 0; j < assent.split(" ").length; j++) consumed.add(i + j);
    }
  }
  const opener = DENIAL_AT_CLAUSE_START.find((phrase) => phraseAt(tokens, 0, phrase));
  if (opener && !consumed.has(0)) {
    const rest = tokens.length - opener.split(" ").length;
    // "no" / "stop" / "wait" alone or leading a short clause ("no thanks", "stop it", "wait a sec").
    if (rest <= 3) reading.denial = true;
  }
  return reading;
}

export function parseConsent(text: string): Consent {
  const normalised = normalise(text).trim();
  if (normalised === "") return { kind: "none" };
  const parts = clauses(normalised);
  const typed = TYPED.exec(normalise(text));
  if (typed) {
    const before = normalised.slice(0, typed.index + (typed[1]?.length ?? 0));
    const lastClause = clauses(`${before} x`).pop() ?? [];
    if (negatedAt(lastClause, lastClause.length - 1)) return { kind: "denial" };
    const original = text.normalize("NFKC").slice(typed.index + (typed[1]?.length ?? 0));
    const match = /confirm\s+(\S+)\s+(\S+?)(?=$|[\s,;!.?]*(\s|$))/i.exec(original);
    return {
      kind: "typed_confirmation",
      action: (typed[2] as string).toLowerCase(),
      target: match?.[2] ?? (typed[3] as string),
    };
  }
  let assent = false;
  let denial = false;
  let conditional = false;
  for (const tokens of parts) {
    const reading = readClause(tokens);
    assent ||= reading.assent;
    denial ||= reading.denial;
    conditional ||= reading.conditional;
  }
  if (denial) return { kind: "denial" };
  if (assent && !conditional && !normalised.endsWith("?")) return { kind: "assent" };
  return { kind: "none" };
}
