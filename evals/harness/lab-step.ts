import { z } from "zod";
import type { Homelab } from "../lab/homelab.ts";

export const LAB_ACTIONS = ["rotate_host_key", "stop_host", "start_host", "partition_host"] as const;
export type LabActionName = (typeof LAB_ACTIONS)[number];

const hostName = z.string().regex(/^[a-z][a-z0-9-]*$/, "a lab host name (hosts[].name)");

/**
 * The operator action `lab:` acts on the simulated homelab between chat turns, exactly one per step:
 * `rotate_host_key` (sshd comes back on its port with a new host key), `stop_host` (sshd down:
 * connection refused), `partition_host` (the port accepts and never answers: unreachable, the client
 * times out), `start_host` (sshd back with the key it had). Every host a scenario stopped,
 * partitioned or re-keyed is brought back before the next scenario.
 */
export const labAction = z
  .object({
    rotate_host_key: hostName.optional(),
    stop_host: hostName.optional(),
    start_host: hostName.optional(),
    partition_host: hostName.optional(),
  })
  .strict()
  .superRefine((action, ctx) => {
    const given = LAB_ACTIONS.filter((name) => action[name] !== undefined);
    if (given.length !== 1)
      ctx.addIssue({
        code: "custom",
        message: `a lab step takes exactly one of ${LAB_ACTIONS.join(", ")} (got ${given.length ? given.join(", ") : "none"})`,
      });
  });
export type LabAction = z.infer<typeof labAction>;

export function labStep(action: LabAction): { name: LabActionName; host: string } {
  const name = LAB_ACTIONS.find((candidate) => action[candidate] !== undefined)!;
  return { name, host: action[name]! };
}

export async function performLab(homelab: Homelab, action: LabAction): Promise<void> {
  const { name, host } = labStep(action);
  if (name === "rotate_host_key") return homelab.rotateHostKey(host);
  if (name === "stop_host") return homelab.stopHost(host);
  if (name === "start_host") return homelab.startHost(host);
  return homelab.partitionHost(host);
}
