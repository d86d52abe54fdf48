/** One line of at most 60 characters, for naming a piece of a command in a reason. */
export function shorten(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
