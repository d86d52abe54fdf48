import { isGrantableDevicePath, type JailGrant } from "../jail-grant.ts";
import type { ProofContext } from "./context.ts";
import { absolutePath, DATA_STREAM, pathParts } from "./devices.ts";
import type { ProofWord } from "./proof-word.ts";

/** Directories of device names: listing or globbing one reads every block device. */
const DEVICE_DIRECTORY = /^\/dev(\/disk(\/by-[a-z-]+)?|\/mapper|\/block|\/zvol(\/.*)?)?\/?$/;
/** The network namespace as /proc shows it: the jail's own unless the host's is granted. */
const PROC_NET = /^\/proc\/(self|thread-self|[0-9]+)?\/?net(\/|$)/;

/**
 * The grants one word of a proven command names for itself: a device path it reads (`smartctl -a
 * /dev/sda`, `dd if=/dev/sda`, `< /dev/sda`) grants that device read-only; a directory of device
 * names or a glob over /dev (`ls /dev/disk/by-id`, `/dev/sd?`) grants every block device; a path
 * in /proc/net grants the host's network namespace. Only words the device check already passed
 * reach here (devices.ts: never a terminal, input device, watchdog or /dev/tcp).
 */
export function wordGrants(word: ProofWord): JailGrant[] {
  if (!word.static) {
    const prefix = /^["']?(\/[^$`"'*?[{\\]*)/.exec(word.raw)?.[1] ?? "";
    return absolutePath(prefix).startsWith("/dev") ? [{ resource: "block_devices" }] : [];
  }
  const grants: JailGrant[] = [];
  for (const part of pathParts(word.value)) {
    if (!part.startsWith("/")) continue;
    const path = absolutePath(part);
    if (PROC_NET.test(path)) grants.push({ resource: "netlink" });
    if (!path.startsWith("/dev") || DATA_STREAM.test(path)) continue;
    if (DEVICE_DIRECTORY.test(path)) grants.push({ resource: "block_devices" });
    else if (isGrantableDevicePath(path)) grants.push({ resource: "device", path });
  }
  return grants;
}

/** Records the grants every word names (see wordGrants); returns null, so it chains with `??`. */
export function grantWords(words: readonly ProofWord[], ctx: ProofContext): null {
  for (const word of words) ctx.grants.push(...wordGrants(word));
  return null;
}
