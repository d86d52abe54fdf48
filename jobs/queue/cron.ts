import cronParser from "cron-parser";

// The same library (and major version) BullMQ's job schedulers evaluate `pattern` with, so the
// in-process queue, `!oikos schedules` and BullMQ agree on every next run.

const MACROS = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@hourly"]);

/** Why `pattern` (in time zone `tz`) is not a usable cron expression; null when it is. */
export function cronProblem(pattern: string, tz?: string): string | null {
  const text = pattern.trim();
  const fields = text.split(/\s+/).length;
  if (!MACROS.has(text) && fields !== 5 && fields !== 6) {
    return `"${pattern}" has ${fields} field(s); use 5 (minute hour day-of-month month day-of-week), 6 (seconds first) or @daily/@weekly/…`;
  }
  if (tz !== undefined && !isTimeZone(tz))
    return `unknown time zone "${tz}" (use an IANA name like Europe/Berlin)`;
  try {
    cronParser.parseExpression(text, tz ? { tz } : {}).next();
    return null;
  } catch (error) {
    return `"${pattern}" is not a cron expression: ${(error as Error).message}`;
  }
}

/** The first fire strictly after `after`. Throws on an expression cronProblem rejects. */
export function nextCronFire(pattern: string, options: { tz?: string; after?: Date } = {}): Date {
  const expression = cronParser.parseExpression(pattern.trim(), {
    currentDate: options.after ?? new Date(),
    ...(options.tz ? { tz: options.tz } : {}),
  });
  return expression.next().toDate();
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
