/** One label or annotation of an alert group that differs from what the thread was last shown. */
export interface AlertChange {
  field: "label" | "annotation";
  key: string;
  /** null: it was not set before. */
  was: string | null;
  /** null: it is no longer set. */
  now: string | null;
}

export interface AlertDescription {
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/**
 * What changed between the labels and annotations the thread last showed and a repeated
 * notification's: added, removed and changed keys, labels first, each field's keys in order.
 * Empty when nothing changed (then a repeat says only that it still fires).
 */
export function alertChanges(before: AlertDescription, after: AlertDescription): AlertChange[] {
  return [
    ...mapChanges("label", before.labels, after.labels),
    ...mapChanges("annotation", before.annotations, after.annotations),
  ];
}

function mapChanges(
  field: AlertChange["field"],
  before: Record<string, string>,
  after: Record<string, string>,
): AlertChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.flatMap((key) => {
    const was = Object.hasOwn(before, key) ? before[key]! : null;
    const now = Object.hasOwn(after, key) ? after[key]! : null;
    return was === now ? [] : [{ field, key, was, now }];
  });
}
