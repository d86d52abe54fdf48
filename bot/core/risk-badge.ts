/** The risk of a command as a short badge: the same words the classifier uses. */
export function riskBadge(risk: string | null | undefined): string {
  switch (risk) {
    case "read_only":
      return "🟢 read-only";
    case "config_mutation":
      return "🟡 config change";
    case "destructive":
      return "🔴 destructive";
    default:
      return risk ? `⚪ ${risk}` : "⚪ unclassified";
  }
}

export function stepIcon(status: string): string {
  switch (status) {
    case "running":
      return "⏳";
    case "done":
      return "✅";
    case "failed":
      return "❌";
    case "skipped":
      return "⏭";
    case "replaced":
      return "↪";
    default:
      return "▫️";
  }
}
