import type { Db } from "../../store/db.ts";
import { liveEntityIdentities } from "../../store/entities.ts";

/**
 * Which entities of the knowledge graph an alert is about, from its labels: instance / host /
 * node / container / job names, monitor names and URLs, IPs. An entity is known by its slug, its
 * name, the part of its slug after the type, and its identifying attributes (ssh.host, ip,
 * hostname, fqdn, aliases …). Ports, URL schemes and the domain of a host name are ignored on
 * both sides. A label that names no entity is reported, so the thread can say what did not match.
 */
export interface EntityMatch {
  /** Matched slugs, strongest label first, without repeats (at most MAX_MATCHES per alert). */
  slugs: string[];
  /** label=value pairs that were tried and matched nothing. */
  unmatched: string[];
  /** For a group of alerts: the slugs each alert's own labels matched, in the alerts' order. */
  perAlert?: string[][];
}

/** Labels that name a machine or a service, in order of how surely they do. */
export const IDENTITY_LABELS = [
  "instance",
  "host",
  "hostname",
  "nodename",
  "node",
  "exported_instance",
  "server",
  "target",
  "container",
  "container_name",
  "name",
  "service",
  "monitor",
  "job",
] as const;

const IDENTITY_ATTRIBUTES = [
  "ssh.host",
  "ip",
  "ip_address",
  "ipv4",
  "ipv6",
  "address",
  "hostname",
  "fqdn",
  "host",
  "alias",
  "aliases",
  "container",
  "container_name",
];

const MAX_MATCHES = 5;

export interface EntityIdentity {
  slug: string;
  name: string;
  attributes: Record<string, unknown>;
}

export function matchEntities(
  labels: Record<string, string>,
  entities: readonly EntityIdentity[],
): EntityMatch {
  const index = new Map<string, Set<string>>();
  for (const entity of entities) {
    for (const key of identityKeys(entity)) {
      const slugs = index.get(key) ?? new Set<string>();
      slugs.add(entity.slug);
      index.set(key, slugs);
    }
  }
  const slugs: string[] = [];
  const unmatched: string[] = [];
  for (const label of IDENTITY_LABELS) {
    const value = labels[label];
    if (!value) continue;
    const found = new Set<string>();
    for (const key of keysOf(value)) for (const slug of index.get(key) ?? []) found.add(slug);
    if (found.size === 0) unmatched.push(`${label}=${value}`);
    for (const slug of [...found].sort()) if (!slugs.includes(slug)) slugs.push(slug);
  }
  return { slugs: slugs.slice(0, MAX_MATCHES), unmatched };
}

/** The most entities one alert group names (a group keyed by alertname can cover many hosts). */
const MAX_GROUP_MATCHES = 12;

/**
 * The entities a group of alerts names: each alert's own labels with what the group shares, so a
 * group Alertmanager keyed by `alertname` only names every host it covers, not the first alert's.
 */
export function matchAlertGroup(
  common: Record<string, string>,
  alerts: readonly { labels: Record<string, string> }[],
  entities: readonly EntityIdentity[],
): EntityMatch {
  if (alerts.length === 0) return matchEntities(common, entities);
  const perAlert = alerts.map((alert) => matchEntities({ ...alert.labels, ...common }, entities));
  const slugs = [...new Set(perAlert.flatMap((match) => match.slugs))].slice(0, MAX_GROUP_MATCHES);
  const unmatched = [...new Set(perAlert.flatMap((match) => match.unmatched))];
  return { slugs, unmatched, perAlert: perAlert.map((match) => match.slugs) };
}

/** Loads the identities of every entity that is not destroyed (a homelab has hundreds, not millions). */
export async function loadEntityIdentities(db: Db): Promise<EntityIdentity[]> {
  const rows = await liveEntityIdentities(db);
  return rows.map((row) => ({ slug: row.slug, name: row.name, attributes: row.attributes }));
}

function identityKeys(entity: EntityIdentity): string[] {
  const keys = [entity.slug.toLowerCase(), ...keysOf(entity.name)];
  const colon = entity.slug.indexOf(":");
  if (colon > 0) keys.push(...keysOf(entity.slug.slice(colon + 1)));
  for (const attribute of IDENTITY_ATTRIBUTES) {
    const value = entity.attributes[attribute];
    const values = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
    for (const item of values) if (typeof item === "string" && item.trim()) keys.push(...keysOf(item));
  }
  return keys;
}

/**
 * The forms a name can be matched by: `https://web1.lan:8443/x` → web1.lan, web1;
 * `10.0.0.5:9100` → 10.0.0.5; `[fe80::1]:9100` → fe80::1; `lxc:gitea` stays as it is too.
 */
export function keysOf(raw: string): string[] {
  let value = raw.trim().toLowerCase();
  if (!value) return [];
  const keys = new Set<string>([value]);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    try {
      value = new URL(value).hostname.replace(/^\[|\]$/g, "");
    } catch {
      return [...keys];
    }
  } else {
    const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
    if (bracketed) value = bracketed[1]!;
    else if (/^[^:]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  }
  keys.add(value);
  const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(value) || value.includes(":");
  if (!isIp && value.includes(".")) keys.add(value.slice(0, value.indexOf(".")));
  return [...keys].filter(Boolean);
}
