/**
 * A command that runs its inner command on another host, in a guest or in a container (`ssh HOST
 * cmd`, `pct exec ID -- cmd`, `docker exec c cmd` …). The read-only jail holds only the client here:
 * the inner command runs there outside every jail of oikos, and goes on running when the client is
 * stopped at its time limit (outside attack of 2026-12, docs/jail.md). So such a command never runs
 * with nobody asked, whatever the inner command is: the proof reads the inner command for the risk
 * of the approval, then refuses it (policy/proof/wrappers.ts), and says where it should run instead.
 */

/** The wrappers that run a command elsewhere, as the proof reads them. */
export const ELSEWHERE_VIAS = [
  "ssh",
  "pct exec",
  "qm guest exec",
  "lxc-attach",
  "docker exec",
  "docker compose exec",
  "kubectl exec",
] as const;
export type ElsewhereVia = (typeof ELSEWHERE_VIAS)[number];

/** Where oikos can run the inner command jailed instead: a target of its own, or nowhere (ask). */
export type ElsewhereInstead = "host_target" | "guest_target" | "ask";

export interface RunsElsewhere {
  via: ElsewhereVia;
  /** The host, guest id or name, or container the command names (as written), when it is a fixed word. */
  place: string | null;
  /** The inner command, as the wrapper runs it. */
  command: string;
  instead: ElsewhereInstead;
}

const INSTEAD: Readonly<Record<ElsewhereVia, ElsewhereInstead>> = {
  ssh: "host_target",
  "pct exec": "guest_target",
  "qm guest exec": "guest_target",
  "lxc-attach": "guest_target",
  "docker exec": "ask",
  "docker compose exec": "ask",
  "kubectl exec": "ask",
};

export function runsElsewhere(via: ElsewhereVia, place: string | null, command: string): RunsElsewhere {
  return { via, place, command, instead: INSTEAD[via] };
}

const WHERE: Readonly<Record<ElsewhereVia, string>> = {
  ssh: "on another host",
  "pct exec": "inside a Proxmox container",
  "qm guest exec": "inside a Proxmox VM",
  "lxc-attach": "inside an LXC container",
  "docker exec": "inside a Docker container",
  "docker compose exec": "inside a Compose service's container",
  "kubectl exec": "inside a Kubernetes pod",
};

/** Why it is not run with nobody asked (the proof's verdict, so the classification's reason). */
export function elsewhereReason(e: RunsElsewhere): string {
  const place = e.place ? ` (${e.place})` : "";
  return (
    `\`${e.via}\` runs \`${e.command}\` ${WHERE[e.via]}${place}, outside every jail of oikos ` +
    "(it may run on there after the client here is stopped), so it is never run with nobody asked: " +
    elsewhereNextStep(e, "use run for this command as it is, which asks the operator")
  );
}

/**
 * The next correct action: run the inner command on that place's own target, where oikos jails it,
 * or `ask` (the caller's words for asking the operator from where it stands).
 */
export function elsewhereNextStep(e: RunsElsewhere, ask: string): string {
  const command = `\`${e.command}\``;
  const vmid = e.place ? `, vmid ${e.place}` : "";
  switch (e.via) {
    case "ssh":
      return `run ${command} on ${e.place ?? "that host"} as its own target (its host:… entity, see list_entities), where oikos jails it; or ${ask}`;
    case "pct exec":
      return `run ${command} on the container's own target (its lxc:… entity${vmid}, see list_entities), which oikos reaches through \`pct exec\` and jails inside the guest; or ${ask}`;
    case "qm guest exec":
      return `run ${command} on the VM's own target (its vm:… entity${vmid}, see list_entities), which oikos reaches through \`qm guest exec\` and jails inside the guest; or ${ask}`;
    case "lxc-attach":
      return `run ${command} on the guest's own target (its lxc:… entity${e.place ? ` for ${e.place}` : ""}, see list_entities), which oikos reaches through \`pct exec\` and jails inside the guest; or ${ask}`;
    case "kubectl exec":
      return `oikos has no transport into a pod, so nothing can jail ${command} there: ${ask}, or read the same from outside (\`kubectl logs\`, \`kubectl describe\`)`;
    default:
      return `oikos has no transport into a container, so nothing can jail ${command} there: ${ask}, or read the same from the host (\`docker logs\`, \`docker inspect\`)`;
  }
}
