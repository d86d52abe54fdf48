/**
 * Real OpenSSH servers for tests: one `sshd -D` per simulated host on its own loopback port, all
 * logging in as the unprivileged user `oikos-test` with a client key made for this run.
 *
 *   const unavailable = await sshLabUnavailable();
 *   describe("…", { skip: unavailable ? `sshd unavailable: ${unavailable}` : false }, () => {
 *     let lab: SshLab;
 *     before(async () => { lab = await startSshLab({ hosts: [{ name: "pve", toolbox: { pct: "#!/bin/sh\n…" } }] }); });
 *     after(() => lab?.stop());
 *     test("…", async () => { const target = labSshTarget(lab.host("pve")); … });  // see lab-targets.ts
 *   });
 *
 * Sessions get PATH=<toolbox>:/usr/local/bin:/usr/bin:/bin, OIKOS_LAB_HOST=<name> and
 * OIKOS_LAB_STATE=<state dir>, so toolbox scripts can keep per-host state (counters, call logs).
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, mkdir, mkdtemp, rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeLoopbackPort } from "./free-port.ts";
import { ensureLabUser, type LabUser, sshLabUnavailable } from "./lab-prerequisites.ts";
import { killDescendants } from "./process-tree.ts";
import { generateEd25519Key } from "./ssh-keys.ts";
import { startSshd, stopSshd, waitForExit } from "./sshd-process.ts";

export { sshLabUnavailable } from "./lab-prerequisites.ts";

export interface LabHostSpec {
  /** Simulated host name, e.g. "hubris"; also the folder name, so letters, digits, ".", "_", "-". */
  name: string;
  /** Scripts put first on PATH for this host, by command name (`{ qm: "#!/bin/sh\n…" }`). */
  toolbox?: Record<string, string>;
  /**
   * Sessions run chrooted into a bind of the whole machine: same files, but the kernel refuses them
   * new user namespaces, so the read-only jail cannot start there (a target that cannot jail).
   */
  sessionsChrooted?: boolean;
  /**
   * Sessions run inside a user namespace of their own whose user.max_user_namespaces is 0: the
   * machine is the same, but no further user namespace can be made there (user namespaces
   * exhausted), so the read-only jail cannot start.
   */
  userNamespacesExhausted?: boolean;
}

export interface LabHost {
  name: string;
  host: "127.0.0.1";
  port: number;
  username: string;
  /** The client private key (OpenSSH format) every lab host accepts. */
  privateKey: string;
  privateKeyPath: string;
  /** `SHA256:…` of this host's current host key; changes after `restartHost(name, { newHostKey: true })`. */
  hostKeyFingerprint: string;
  /** This host's current public host key line (`ssh-ed25519 AAAA… comment`), e.g. for a known_hosts file. */
  hostPublicKey: string;
  /** On PATH first; scripts here shadow real commands. Readable by the test user. */
  toolboxDir: string;
  /** Writable by the test user; exported to sessions as $OIKOS_LAB_STATE. */
  stateDir: string;
}

export interface SshLab {
  hosts: LabHost[];
  username: string;
  privateKey: string;
  privateKeyPath: string;
  host(name: string): LabHost;
  /** Install or replace one toolbox script on a host. */
  writeTool(hostName: string, command: string, script: string): Promise<void>;
  /** Kill the host's sshd and its sessions, then start it again on the same port. */
  restartHost(hostName: string, options?: { newHostKey?: boolean }): Promise<LabHost>;
  /**
   * Kill every open session of the host (the server side of each connection) at once, synchronously,
   * while its sshd keeps listening: a dropped network connection, as the client sees it.
   */
  dropConnections(hostName: string): void;
  /** Kill the host's sshd and its sessions and leave it down (connection-refused scenarios). */
  stopHost(hostName: string): Promise<void>;
  /** Kill every sshd of this lab and delete its temporary files. Safe to call twice. */
  stop(): Promise<void>;
}

export interface SshLabOptions {
  hosts: LabHostSpec[];
  /**
   * Log in as root instead of the unprivileged lab user (oikos's default ssh.user). Slower: root's
   * own ~/.bashrc runs before every command. Only for tests that must see what root sees.
   */
  loginAsRoot?: boolean;
  /** Log in as this (unprivileged) user instead of the lab user, e.g. one sudo lets become root. */
  loginAs?: LabUser;
  /**
   * Where the lab's files (toolboxes, state) live; default the system's temporary directory. Tests
   * whose toolbox must run inside the read-only jail put it elsewhere (e.g. /var/lib): the jail gives
   * its commands a private, empty /tmp.
   */
  baseDir?: string;
}

interface HostState {
  spec: LabHostSpec;
  /** The empty directory the chrooted sessions' sshd binds / onto (sessionsChrooted). */
  chroot?: string;
  host: LabHost;
  dir: string;
  child: ChildProcess | null;
}

const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** ForceCommand of a userNamespacesExhausted host: the session's command, in an outer user namespace with no room for more. */
const EXHAUSTED_USERNS = `#!/bin/sh
exec unshare --user --map-root-user sh -c 'echo 0 > /proc/sys/user/max_user_namespaces && exec sh -c "$SSH_ORIGINAL_COMMAND"'
`;
const PORT_ATTEMPTS = 5;

/**
 * Start one real OpenSSH sshd per simulated host on loopback, all at once. Throws when the machine
 * cannot run them; check `sshLabUnavailable()` first and skip the suite with its reason.
 */
export async function startSshLab(options: SshLabOptions): Promise<SshLab> {
  const missing = await sshLabUnavailable();
  if (missing !== null) throw new Error(`sshd unavailable: ${missing}`);
  const names = new Set<string>();
  for (const spec of options.hosts) {
    if (!HOST_NAME.test(spec.name))
      throw new Error(`lab host name ${JSON.stringify(spec.name)} is not a plain name`);
    if (names.has(spec.name)) throw new Error(`lab host ${spec.name} is listed twice`);
    names.add(spec.name);
  }
  const user: LabUser = options.loginAsRoot
    ? { username: "root", uid: 0, gid: 0, home: "/root" }
    : (options.loginAs ?? (await ensureLabUser()));
  const root = await mkdtemp(join(options.baseDir ?? tmpdir(), "oikos-sshlab-"));
  await chmod(root, 0o755); // the test user must reach toolbox/ and state/ below it
  const states: HostState[] = [];
  try {
    const clientKey = await generateEd25519Key(join(root, "client_ed25519"), "oikos-lab-client");
    const authorizedKeys = join(root, "authorized_keys");
    await writeFile(authorizedKeys, `${clientKey.publicKey}\n`, { mode: 0o644 });
    const bannerTag = `oikos-lab-${randomBytes(6).toString("hex")}`;

    const startHost = async (spec: LabHostSpec): Promise<void> => {
      const dir = join(root, "hosts", spec.name);
      const toolboxDir = join(dir, "toolbox");
      const stateDir = join(dir, "state");
      await mkdir(toolboxDir, { recursive: true, mode: 0o755 });
      await mkdir(stateDir, { recursive: true });
      await chown(stateDir, user.uid, user.gid);
      await chmod(join(root, "hosts"), 0o755);
      await chmod(dir, 0o755);
      for (const [command, script] of Object.entries(spec.toolbox ?? {})) {
        await writeToolFile(toolboxDir, command, script);
      }
      const hostKey = await generateEd25519Key(join(dir, "host_ed25519"), `oikos-lab-${spec.name}`);
      if (spec.userNamespacesExhausted) await writeToolFile(dir, "exhausted-userns", EXHAUSTED_USERNS);
      const state: HostState = {
        spec,
        dir,
        child: null,
        host: {
          name: spec.name,
          host: "127.0.0.1",
          port: 0,
          username: user.username,
          privateKey: clientKey.privateKey,
          privateKeyPath: clientKey.privateKeyPath,
          hostKeyFingerprint: hostKey.fingerprint,
          hostPublicKey: hostKey.publicKey,
          toolboxDir,
          stateDir,
        },
      };
      states.push(state);
      await launch(state, user, authorizedKeys, `${bannerTag}-${spec.name}`, null);
    };
    await Promise.all(options.hosts.map(startHost));
    // keep the caller's order, not the order the hosts happened to come up in
    states.sort((a, b) => options.hosts.indexOf(a.spec) - options.hosts.indexOf(b.spec));

    const byName = (name: string): HostState => {
      const state = states.find((candidate) => candidate.spec.name === name);
      if (state === undefined) throw new Error(`no lab host named ${name}`);
      return state;
    };
    let stopped = false;
    return {
      hosts: states.map((state) => state.host),
      username: user.username,
      privateKey: clientKey.privateKey,
      privateKeyPath: clientKey.privateKeyPath,
      host: (name) => byName(name).host,
      writeTool: (hostName, command, script) =>
        writeToolFile(byName(hostName).host.toolboxDir, command, script),
      async restartHost(hostName, restartOptions = {}) {
        const state = byName(hostName);
        await halt(state);
        if (restartOptions.newHostKey === true) {
          await rm(join(state.dir, "host_ed25519"), { force: true });
          await rm(join(state.dir, "host_ed25519.pub"), { force: true });
          const hostKey = await generateEd25519Key(join(state.dir, "host_ed25519"), `oikos-lab-${hostName}`);
          state.host.hostKeyFingerprint = hostKey.fingerprint;
          state.host.hostPublicKey = hostKey.publicKey;
        }
        await launch(state, user, authorizedKeys, `${bannerTag}-${hostName}`, state.host.port);
        return state.host;
      },
      stopHost: (hostName) => halt(byName(hostName)),
      dropConnections(hostName) {
        const pid = byName(hostName).child?.pid;
        if (pid !== undefined) killDescendants(pid);
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await Promise.all(states.map(halt));
        await Promise.all(states.map(removeChroot));
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(states.map(halt));
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

async function launch(
  state: HostState,
  user: LabUser,
  authorizedKeysFile: string,
  bannerTag: string,
  fixedPort: number | null,
): Promise<void> {
  // ChrootDirectory must be owned by root and writable by nobody else all the way up: not under /tmp
  if (state.spec.sessionsChrooted && state.chroot === undefined) {
    state.chroot = await mkdtemp("/var/lib/oikos-lab-chroot-");
    await chmod(state.chroot, 0o755);
  }
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freeLoopbackPort());
    try {
      const running = await startSshd(
        {
          port,
          hostKeyPath: join(state.dir, "host_ed25519"),
          pidFile: join(state.dir, "sshd.pid"),
          authorizedKeysFile,
          username: user.username,
          toolboxDir: state.host.toolboxDir,
          stateDir: state.host.stateDir,
          hostName: state.spec.name,
          bannerTag,
          ...(state.chroot === undefined ? {} : { chrootDirectory: state.chroot }),
          ...(state.spec.userNamespacesExhausted
            ? { forceCommand: join(state.dir, "exhausted-userns") }
            : {}),
        },
        { configPath: join(state.dir, "sshd_config"), logPath: join(state.dir, "sshd.log") },
      );
      state.child = running.child;
      state.host.port = running.port;
      return;
    } catch (error) {
      const portTaken = (error as { portTaken?: boolean }).portTaken === true;
      if (!portTaken || attempt >= PORT_ATTEMPTS) throw error;
      if (fixedPort !== null) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * rmdir, never a recursive delete: the directory is empty here (the bind of / lived in the stopped
 * sshd's own mount namespace), and were it ever not, nothing of the machine may go with it.
 */
async function removeChroot(state: HostState): Promise<void> {
  if (state.chroot !== undefined) await rmdir(state.chroot).catch(() => {});
}

async function halt(state: HostState): Promise<void> {
  const child = state.child;
  if (child === null) return;
  state.child = null;
  stopSshd(child);
  await waitForExit(child);
}

async function writeToolFile(toolboxDir: string, command: string, script: string): Promise<void> {
  if (!HOST_NAME.test(command))
    throw new Error(`toolbox command ${JSON.stringify(command)} is not a plain name`);
  await writeFile(join(toolboxDir, command), script, { mode: 0o755 });
  await chmod(join(toolboxDir, command), 0o755);
}
