import type { BaseOperatorAction, OperatorAction } from "./operator-schema.ts";

interface Point {
  asked: boolean;
  restarted: PromiseWithResolvers<void>;
}

/**
 * The model steps that `restart: { during: <step> }` names. The first request such a step answers
 * is held until the restart is done, so the app goes down with that model call in flight; the step
 * answers once more than its `times` (the call the resumed turn repeats).
 */
export class RestartPoints {
  readonly #points = new Map<string, Point>();

  constructor(operator: readonly (OperatorAction | BaseOperatorAction)[]) {
    for (const step of restartSteps(operator))
      this.#points.set(step, { asked: false, restarted: Promise.withResolvers<void>() });
  }

  /** A step some restart happens during. */
  names(step: string): boolean {
    return this.#points.has(step);
  }

  /** The hold for the step's reply the first time it is asked; nothing after that. */
  holdFor(step: string): PromiseLike<void> | undefined {
    const point = this.#points.get(step);
    if (!point || point.asked) return undefined;
    point.asked = true;
    return point.restarted.promise;
  }

  asked(step: string): boolean {
    return this.#points.get(step)?.asked ?? false;
  }

  /** The app restarted: the held reply goes out (to a connection that is gone). */
  restarted(step: string): void {
    this.#points.get(step)?.restarted.resolve();
  }

  releaseAll(): void {
    for (const point of this.#points.values()) point.restarted.resolve();
  }
}

/** Every `restart.during` in the operator script, inside when/then/else too. */
export function restartSteps(operator: readonly (OperatorAction | BaseOperatorAction)[]): string[] {
  return operator.flatMap((action) => [
    ...(action.restart?.during ? [action.restart.during] : []),
    ...("when" in action ? [...restartSteps(action.then ?? []), ...restartSteps(action.else ?? [])] : []),
  ]);
}
