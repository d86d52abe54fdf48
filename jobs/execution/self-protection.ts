import type { Entity } from "../../store/entities.ts";

const DISRUPTIVE_VERB =
  /\b(stop|restart|reboot|shutdown|poweroff|halt|destroy|kill|killall|pkill|down|rm|remove|suspend|reset)\b/;
const GUEST_DISRUPTION = /\b(pct|qm)\s+(stop|shutdown|reboot|destroy|suspend|reset)\s+(\d+)\b/g;

export interface SelfTargets {
  /** Slugs of the entities that run oikos itself (config self.targets). */
  slugs: readonly string[];
  /** vmids of those slugs that are Proxmox guests, with their owning host. */
  guests: readonly { vmid: number; host: string | null }[];
}

export function selfTargetsFrom(slugs: readonly string[], entities: readonly Entity[]): SelfTargets {
  const guests: { vmid: number; host: string | null }[] = [];
  for (const entity of entities) {
    const vmid = Number(entity.attributes.vmid ?? entity.attributes["proxmox.vmid"]);
    if (slugs.includes(entity.slug) && Number.isInteger(vmid) && vmid > 0) {
      guests.push({ vmid, host: entity.parent_slug });
    }
  }
  return { slugs, guests };
}

/**
 * Whether a (non-read-only) command would stop, restart or destroy what runs oikos: any disruptive
 * verb on a self target itself, or `pct|qm stop|destroy … <vmid>` of a self guest on its host.
 */
export function disruptsSelf(self: SelfTargets, target: string, command: string): boolean {
  if (self.slugs.includes(target) && DISRUPTIVE_VERB.test(command)) return true;
  for (const match of command.matchAll(GUEST_DISRUPTION)) {
    const vmid = Number(match[3]);
    if (self.guests.some((guest) => guest.vmid === vmid && (guest.host === null || guest.host === target))) {
      return true;
    }
  }
  return false;
}
