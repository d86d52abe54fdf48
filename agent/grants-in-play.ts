import type { Executor } from "../store/audit.ts";
import { type GrantInPlay, grantsInPlay } from "../store/standing-grants.ts";

/** How the prompt introduces the grants; SOUL.md says what to do with them (agent/soul.test.ts). */
export const GRANTS_HEADING = "Live standing grants";

/**
 * The live standing grants (♾️) of the session's room on the entities in play, read for one turn:
 * the system prompt is rebuilt every model round, the grants are read again only when the entities
 * in play changed since (a goal naming a target, a first command on it), never when none are.
 */
export class TurnGrants {
  #key: string | null = null;
  #grants: GrantInPlay[] = [];

  async of(db: Executor, sessionId: string, entities: readonly string[], now: Date): Promise<GrantInPlay[]> {
    if (entities.length === 0) return [];
    const key = [...entities].sort().join("\n");
    if (key !== this.#key) {
      this.#grants = await grantsInPlay(db, sessionId, entities, now);
      this.#key = key;
    }
    // One that expired during the turn is no longer offered (the run gate would ask again anyway).
    return this.#grants.filter((g) => g.expires_at.getTime() > now.getTime());
  }
}

/** The grants as the model reads them: data (JSON), the command exactly as granted. */
export function grantLines(grants: readonly GrantInPlay[]): string[] {
  const shown = grants.map((g) => ({
    grant: g.id,
    target: g.target,
    command: g.command,
    until: g.expires_at.toISOString(),
  }));
  if (shown.length === 0) return [];
  return [`${GRANTS_HEADING} (♾️) on what this task touches: ${JSON.stringify(shown)}`];
}
