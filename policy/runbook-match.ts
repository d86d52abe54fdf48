// When an adopted runbook is offered again (issue #33): a runbook keeps the symptom its tasks shared
// (the words their goals have in common), and a new task on one of its entities is offered it when
// its own goal says the same. Words, not prose: lower-case, stop words and entity type prefixes out,
// numbers kept (an HTTP 502 is a symptom).

const STOP_WORDS = new Set([
  "the",
  "and",
  "for",
  "with",
  "after",
  "was",
  "are",
  "its",
  "from",
  "into",
  "this",
  "that",
  "not",
  "again",
  "can",
  "you",
  "please",
  "fix",
  "check",
  "make",
  "why",
  "what",
  "does",
  "doesn",
  "lxc",
  "host",
  "service",
  "container",
  "stack",
  "volume",
]);

/** The words of a text that can say a symptom, each once, in order of first appearance. */
export function symptomWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
  return [...new Set(words)];
}

/** At most this many words make a symptom. */
const MAX_SYMPTOM_WORDS = 8;

/**
 * The symptom several tasks share: the words at least `minTexts` of their texts have (every text
 * when fewer), most shared first, then in order of first appearance.
 */
export function sharedSymptom(texts: readonly string[], minTexts = 2): string[] {
  const sets = texts.map(symptomWords);
  const needed = Math.min(Math.max(minTexts, 1), sets.length);
  const order: string[] = [];
  const count = new Map<string, number>();
  for (const words of sets)
    for (const word of words) {
      if (!count.has(word)) order.push(word);
      count.set(word, (count.get(word) ?? 0) + 1);
    }
  return order
    .filter((word) => (count.get(word) ?? 0) >= needed)
    .sort((a, b) => (count.get(b) ?? 0) - (count.get(a) ?? 0))
    .slice(0, MAX_SYMPTOM_WORDS);
}

/**
 * Whether a task's text shows the runbook's symptom: at least half of the symptom's words, and at
 * least two of them when it has two or more. An empty symptom matches nothing.
 */
export function symptomMatches(symptom: readonly string[], text: string): boolean {
  if (symptom.length === 0) return false;
  const words = new Set(symptomWords(text));
  const hits = symptom.filter((word) => words.has(word)).length;
  return hits >= Math.min(2, symptom.length) && hits * 2 >= symptom.length;
}
