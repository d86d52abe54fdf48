import type { EntityInput } from "../store/entities.ts";
import type { LocalHostSpec } from "./homelab/local-host.ts";
import type { ScriptStep } from "./scripted-model/index.ts";

/**
 * One recorded incident `oikos demo` replays: the simulated host it happens on, what the operator
 * says first, and the model's side of the conversation as a script (the agent, its tools and every
 * gate are the real ones; only the model's answers are recorded).
 */
export interface Incident {
  /** One line for the demo's header. */
  title: string;
  /** The entity in the knowledge graph; its transport is `local`, its tools are the host's fake ones. */
  entity: Omit<EntityInput, "transport">;
  host: LocalHostSpec;
  /** The operator's first message: it starts the task. */
  opening: string;
  script: ScriptStep[];
  /** Answers a request no step matched (a recording has nothing more to say). */
  fallback: string;
}
