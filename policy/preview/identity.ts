import type { ProbeResult } from "./probe.ts";

/**
 * Who a preview looks as (issue #37): the login oikos uses on the target, or the user a plain `sudo`
 * gives the command (root). A probe that looks as the wrong user sees the wrong files: a root-only
 * file is "missing" to the login, so a `sudo tee` that replaces it would read as a harmless create.
 */
export type ProbeIdentity = "login" | "sudo";

/** What a new file gets from its creator: owner, group and the umask that masks its mode. */
export interface IdentityFacts {
  uid: number;
  gid: number;
  umask: number;
  /**
   * The ids an owner the probe's user namespace does not map reads as (kernel.overflowuid/gid): in
   * a jail of a login that is not root, every owner but the login itself. Such an owner is unknown.
   */
  overflowUid: number;
  overflowGid: number;
}

/**
 * Read-only, builtins and coreutils only: who the probe runs as, the umask a new file gets, and the
 * mounts the probe sees (policy/preview/mount-view.ts), in one run.
 */
export const IDENTITY_PROBE =
  "id -u && id -g && umask && cat /proc/sys/kernel/overflowuid /proc/sys/kernel/overflowgid /proc/self/mountinfo";

/** Who looks, and the rest of the answer (the mount table). */
export function parseIdentity(result: ProbeResult): (IdentityFacts & { rest: string }) | { unseen: string } {
  const lines = result.stdout.split("\n");
  const [uid, gid, umask, overflowUid, overflowGid] = lines;
  if (result.exitCode !== 0 || lines.length < 6 || !uid || !gid || !umask || !overflowUid || !overflowGid) {
    return {
      unseen: `\`${IDENTITY_PROBE}\` did not answer (${result.stderr.trim() || `exit ${result.exitCode}`})`,
    };
  }
  if (
    ![uid, gid, overflowUid, overflowGid].every((id) => /^\d+$/.test(id)) ||
    !/^0?[0-7]{3,4}$/.test(umask)
  ) {
    return { unseen: `\`${IDENTITY_PROBE}\` printed something else than ids and a umask` };
  }
  return {
    uid: Number(uid),
    gid: Number(gid),
    umask: Number.parseInt(umask, 8),
    overflowUid: Number(overflowUid),
    overflowGid: Number(overflowGid),
    rest: lines.slice(5).join("\n"),
  };
}
