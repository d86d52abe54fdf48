/**
 * The vocabulary of consent parsing (policy/consent.ts): words and phrases by what they mean.
 * Data only; the rules that combine them live in consent.ts.
 */
export const NEGATORS = new Set([
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
export const ASSENT_PHRASES = [
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
  "sure thing",
  "all good",
];

/** Denial words and phrases that count anywhere in a clause. */
export const DENIAL_ANYWHERE = [
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
  "forget it",
  "don't do it",
  "do not do it",
  "👎",
  "❌",
  "🛑",
  "✋",
];

/**
 * Words that deny only when they open a clause ("no, wait", "stop!"), or follow an assent word or
 * a turn ("ok wait", "yes stop", "but no", "actually don't"), not as verbs in an instruction.
 */
export const DENIAL_AT_CLAUSE_START = ["no", "n", "stop", "wait", "halt", "never", "don't", "do not", "dont"];
export const TURN_WORDS = new Set(["but", "actually", "oh", "hmm", "wait"]);

/** Phrases that look like negation or denial but are not about the action. */
export const NEUTRAL_PHRASES = [
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

/** Words that may stand around an assent phrase without changing it ("yes please", "go ahead, thanks"). */
export const COURTESY_PHRASES = [
  "please",
  "pls",
  "plz",
  "thanks",
  "thank you",
  "thx",
  "ty",
  "cheers",
  "then",
  "now",
  "just",
  "and",
  "to me",
  "by me",
  "with me",
  "for me",
  "it",
  "it's",
  "its",
  "it is",
  "that",
  "that's",
  "thats",
  "this",
  "🙏",
  "🙂",
  "😊",
];

/** Cancel assent anywhere outside a recognised phrase: a hold, a deferral, a part, a condition. */
export const HOLD_WORDS = new Set(
  (
    "wait stop hold no don't dont later tomorrow tonight after before until once only except first but " +
    "if unless provided assuming when instead nothing none said says say told tell asked"
  ).split(" "),
);

/** A clause opening with one of these is a question, with or without "?". */
export const QUESTION_OPENERS = new Set(
  "what why who whom whose which how when where should shall can could would will is are does do did may might".split(
    " ",
  ),
);

/** "yes, restart it": a verb echoing the action, followed by it/that/them/this. */
export const ECHO_VERBS = new Set(
  (
    "restart reboot run apply start deploy install update upgrade merge send ship execute do delete remove " +
    "destroy rollback retry reload kill wipe migrate resize fix"
  ).split(" "),
);
export const ECHO_OBJECTS = new Set(["it", "that", "them", "this"]);
