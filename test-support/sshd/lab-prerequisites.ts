import { execFile } from "node:child_process";
import { access, constants, mkdir, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export const SSHD_PATH = "/usr/sbin/sshd";
export const LAB_USER = "oikos-test";

export interface LabUser {
  username: string;
  uid: number;
  gid: number;
  home: string;
}

let unavailable: Promise<string | null> | undefined;

/**
 * Why a real-sshd lab cannot run here, or null when it can. Tests use it as a suite-level skip:
 * `describe("…", { skip: (await sshLabUnavailable()) ?? false }, …)`.
 */
export function sshLabUnavailable(): Promise<string | null> {
  unavailable ??= findMissingPrerequisite().then((reason) => {
    // In CI the SSH suites are the point: a missing sshd fails the run instead of skipping it.
    if (reason && process.env.CI) throw new Error(`CI cannot run the real-SSH tests: ${reason}`);
    return reason;
  });
  return unavailable;
}

async function findMissingPrerequisite(): Promise<string | null> {
  if (process.platform !== "linux") return `sshd lab needs Linux, this is ${process.platform}`;
  if (process.getuid?.() !== 0)
    return `sshd lab needs root to run sshd and switch users (running as ${userInfo().username})`;
  for (const tool of [SSHD_PATH, "/usr/bin/ssh-keygen", "/usr/bin/timeout"]) {
    try {
      await access(tool, constants.X_OK);
    } catch {
      return `${tool} is missing (run scripts/install-test-deps.sh)`;
    }
  }
  return null;
}

let labUser: Promise<LabUser> | undefined;

/** The unprivileged login user every lab host uses; created once, with an empty ~/.bashrc. */
export function ensureLabUser(): Promise<LabUser> {
  labUser ??= ensureLoginUser(LAB_USER);
  return labUser;
}

/** An unprivileged user sshd lets log in by key (UsePAM no), with an empty ~/.bashrc. */
export async function ensureLoginUser(name: string): Promise<LabUser> {
  await mkdir("/run/sshd", { recursive: true, mode: 0o755 });
  let entry = await passwdEntry(name);
  if (entry === null) {
    try {
      await execFileAsync("useradd", ["-m", "-s", "/bin/bash", name]);
    } catch (error) {
      // exit code 9: another test process created the user at the same moment
      if ((error as { code?: number }).code !== 9) throw error;
    }
    entry = await passwdEntry(name);
    if (entry === null) throw new Error(`useradd ${name} did not create the user`);
  }
  // With UsePAM no, a locked password field ("!") blocks public-key login too.
  if ((await shadowPassword(name)) !== "*") await retry(() => execFileAsync("usermod", ["-p", "*", name]));
  // bash sources ~/.bashrc even for commands started by sshd; an empty one keeps each exec fast.
  await writeFile(`${entry.home}/.bashrc`, "");
  await execFileAsync("chown", [`${entry.uid}:${entry.gid}`, `${entry.home}/.bashrc`]);
  return entry;
}

async function passwdEntry(name: string): Promise<LabUser | null> {
  try {
    const { stdout } = await execFileAsync("getent", ["passwd", name]);
    const [username, , uid, gid, , home] = stdout.trim().split(":");
    if (username === undefined || uid === undefined || gid === undefined || home === undefined) return null;
    return { username, uid: Number(uid), gid: Number(gid), home };
  } catch {
    return null;
  }
}

async function shadowPassword(name: string): Promise<string | null> {
  try {
    const { stdout } = await execFileAsync("getent", ["shadow", name]);
    return stdout.split(":")[1] ?? null;
  } catch {
    return null;
  }
}

/** usermod fails while another process (a parallel test file) holds the passwd/shadow lock. */
async function retry<T>(action: () => Promise<T>, attempts = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
