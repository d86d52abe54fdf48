import type { Risk } from "../../policy/risk.ts";
import { ADVERSARIAL_CORPUS } from "./adversarial.ts";
import { CONFIG_MUTATION_CORPUS } from "./config-mutation.ts";
import { DESTRUCTIVE_CORPUS } from "./destructive.ts";
import { READ_ONLY_CORPUS } from "./read-only.ts";
import { REJECT_CORPUS } from "./reject.ts";

export interface CorpusEntry {
  command: string;
  label: Risk;
  adversarial: boolean;
}

/** The labelled classifier corpus: every entry is asserted by policy/corpus.test.ts. */
export const CORPUS: readonly CorpusEntry[] = [
  ...READ_ONLY_CORPUS.map((command) => ({ command, label: "read_only" as const, adversarial: false })),
  ...CONFIG_MUTATION_CORPUS.map((command) => ({
    command,
    label: "config_mutation" as const,
    adversarial: false,
  })),
  ...DESTRUCTIVE_CORPUS.map((command) => ({ command, label: "destructive" as const, adversarial: false })),
  ...REJECT_CORPUS.map((command) => ({ command, label: "reject" as const, adversarial: false })),
  ...ADVERSARIAL_CORPUS.map(([command, label]) => ({ command, label, adversarial: true })),
];
