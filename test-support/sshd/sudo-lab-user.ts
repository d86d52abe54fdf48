import { access, constants, writeFile } from "node:fs/promises";
import { ensureLoginUser, type LabUser } from "./lab-prerequisites.ts";

/** A lab login that `sudo -n` makes root without a password (plan previews of `sudo` commands, #37). */
export const SUDO_LAB_USER = "oikos-sudo";
const SUDOERS_FILE = "/etc/sudoers.d/oikos-sudo-lab";

/** Why the sudo lab cannot run here (sudo is missing), or null. */
export async function sudoLabUnavailable(): Promise<string | null> {
  try {
    await access("/usr/bin/sudo", constants.X_OK);
    return null;
  } catch {
    const reason = "/usr/bin/sudo is missing (run scripts/install-test-deps.sh)";
    if (process.env.CI) throw new Error(`CI cannot run the sudo lab: ${reason}`);
    return reason;
  }
}

let user: Promise<LabUser> | undefined;

/**
 * The user `oikos-sudo`, allowed every command as root through sudo without a password (its own
 * sudoers drop-in; the shared lab user `oikos-test` is never given sudo).
 */
export function ensureSudoLabUser(): Promise<LabUser> {
  user ??= (async () => {
    const entry = await ensureLoginUser(SUDO_LAB_USER);
    await writeFile(SUDOERS_FILE, `${SUDO_LAB_USER} ALL=(ALL:ALL) NOPASSWD: ALL\n`, { mode: 0o440 });
    return entry;
  })();
  return user;
}
