/**
 * Which of a fixed set of lower-case ASCII keywords occur in a text, in one pass (Aho-Corasick over
 * a table indexed by character class: only the characters keywords use get a column, every other
 * character shares one, and upper case folds onto lower). This is the detector's prefilter: a rule
 * runs only when one of its keywords occurs, as in gitleaks, so ~250 rules cost one scan plus the
 * few that apply.
 */
export class KeywordScanner {
  readonly keywords: readonly string[];
  /** char code (< 128) → column; 0 is "a character no keyword uses". */
  private readonly column = new Uint8Array(128);
  private readonly columns: number;
  private readonly next: Uint16Array | Uint32Array;
  /** Per state: indexes of the keywords that end here (through dictionary suffix links), or null. */
  private readonly outputs: (readonly number[] | null)[];

  constructor(keywords: readonly string[]) {
    this.keywords = [...new Set(keywords.map((k) => k.toLowerCase()))].filter((k) => k.length > 0);
    let columns = 1;
    for (const keyword of this.keywords) {
      for (let i = 0; i < keyword.length; i++) {
        const code = keyword.charCodeAt(i);
        if (code >= 128) throw new Error(`keyword ${JSON.stringify(keyword)} is not ASCII`);
        if (this.column[code] === 0) this.column[code] = columns++;
      }
    }
    for (let code = 65; code <= 90; code++) this.column[code] = this.column[code + 32]!;
    this.columns = columns;
    const goto: Map<number, number>[] = [new Map()];
    const ends: number[][] = [[]];
    this.keywords.forEach((keyword, index) => {
      let state = 0;
      for (let i = 0; i < keyword.length; i++) {
        const col = this.column[keyword.charCodeAt(i)]!;
        let to = goto[state]!.get(col);
        if (to === undefined) {
          to = goto.length;
          goto.push(new Map());
          ends.push([]);
          goto[state]!.set(col, to);
        }
        state = to;
      }
      ends[state]!.push(index);
    });
    const states = goto.length;
    const next = states < 65_536 ? new Uint16Array(states * columns) : new Uint32Array(states * columns);
    const fail = new Uint32Array(states);
    const queue: number[] = [];
    for (let col = 1; col < columns; col++) {
      const to = goto[0]!.get(col);
      next[col] = to ?? 0;
      if (to !== undefined) queue.push(to);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      ends[state]!.push(...ends[fail[state]!]!);
      for (let col = 1; col < columns; col++) {
        const to = goto[state]!.get(col);
        if (to === undefined) {
          next[state * columns + col] = next[fail[state]! * columns + col]!;
        } else {
          fail[to] = next[fail[state]! * columns + col]!;
          next[state * columns + col] = to;
          queue.push(to);
        }
      }
    }
    this.next = next;
    this.outputs = ends.map((list) => (list.length > 0 ? [...new Set(list)] : null));
  }

  /** Whether any keyword occurs in `text`, case-insensitively: `found(text).includes(1)`, stopping at the first. */
  occursIn(text: string): boolean {
    const { next, outputs, column, columns } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const col = code < 128 ? column[code]! : 0;
      state = col === 0 ? 0 : next[state * columns + col]!;
      if (state !== 0 && outputs[state] !== null) return true;
    }
    return false;
  }

  /** For each keyword (by index into `keywords`): 1 when it occurs in `text`, case-insensitively. */
  found(text: string): Uint8Array {
    const seen = new Uint8Array(this.keywords.length);
    const { next, outputs, column, columns } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const col = code < 128 ? column[code]! : 0;
      state = col === 0 ? 0 : next[state * columns + col]!;
      if (state !== 0) {
        const out = outputs[state];
        if (out !== null) for (let k = 0; k < out!.length; k++) seen[out![k]!] = 1;
      }
    }
    return seen;
  }
}
