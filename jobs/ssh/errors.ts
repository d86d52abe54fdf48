import { OikosError } from "../../base/errors.ts";
import { knownHostsName } from "./known-hosts-store.ts";

type ErrorOptions = { logMessage?: string; cause?: unknown };

/** Nothing listens on the SSH port (or a firewall rejects the connection). */
export class SshConnectionRefusedError extends OikosError {
  constructor(where: string, options: ErrorOptions = {}) {
    super(
      "ssh_connection_refused",
      `SSH to ${where} was refused: nothing accepts connections on that port. Check that the host is up and ` +
        "sshd is running (`systemctl status ssh`), and that the port in the inventory is right.",
      options,
    );
    this.name = "SshConnectionRefusedError";
  }
}

/** The server rejected every key (and agent identity) we offered. */
export class SshAuthFailedError extends OikosError {
  constructor(where: string, username: string, options: ErrorOptions = {}) {
    super(
      "ssh_auth_failed",
      `SSH login as ${username} on ${where} was rejected: the server accepted none of oikos's keys. Add oikos's ` +
        `public key to ~${username}/.ssh/authorized_keys on that host, or fix the SSH key configured for oikos.`,
      options,
    );
    this.name = "SshAuthFailedError";
  }
}

/** The host presented a different host key than the one remembered for it. */
export class HostKeyChangedError extends OikosError {
  readonly hostPort: string;
  readonly expectedFingerprints: readonly string[];
  readonly presentedFingerprint: string;

  constructor(hostPort: string, expected: readonly string[], presented: string, options: ErrorOptions = {}) {
    super(
      "ssh_host_key_changed",
      `Refusing to connect to ${hostPort}: its SSH host key changed. Remembered ${expected.join(" or ")}, ` +
        `now ${presented}. A reinstalled host explains this, and so does someone intercepting the connection. ` +
        `If the change is expected, compare the new fingerprint with \`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub\` ` +
        `on the host's console, then remove the remembered key for ${hostPort} (for a known_hosts file: ` +
        `\`ssh-keygen -R "${knownHostsName(hostPort)}"\`) and connect again.`,
      options,
    );
    this.name = "HostKeyChangedError";
    this.hostPort = hostPort;
    this.expectedFingerprints = expected;
    this.presentedFingerprint = presented;
  }
}

/** No key is known for the host and trust-on-first-use is off. */
export class HostKeyUnknownError extends OikosError {
  constructor(hostPort: string, presented: string, options: ErrorOptions = {}) {
    super(
      "ssh_host_key_unknown",
      `Refusing to connect to ${hostPort}: its SSH host key (${presented}) is not known and trust-on-first-use ` +
        "is off. Verify the fingerprint on the host's console and add the host to the known_hosts file oikos reads.",
      options,
    );
    this.name = "HostKeyUnknownError";
  }
}

/** TCP connected (or not) but no SSH session was ready in time. */
export class SshConnectTimeoutError extends OikosError {
  constructor(where: string, timeoutMs: number, options: ErrorOptions = {}) {
    super(
      "ssh_connect_timeout",
      `SSH to ${where} did not become ready within ${Math.round(timeoutMs / 1000)} s. Check that the host is ` +
        "reachable from the oikos worker (network, firewall) and that sshd there is not overloaded.",
      options,
    );
    this.name = "SshConnectTimeoutError";
  }
}

/** Any other failure to establish a connection (DNS, unreachable network, protocol mismatch). */
export class SshConnectionFailedError extends OikosError {
  constructor(where: string, reason: string, options: ErrorOptions = {}) {
    super(
      "ssh_connection_failed",
      `SSH to ${where} failed: ${reason}. Check the host name and port in the inventory and that the host is reachable.`,
      options,
    );
    this.name = "SshConnectionFailedError";
  }
}

/** The connection died while a command ran: whether the command finished is unknown. */
export class SshConnectionLostError extends OikosError {
  constructor(where: string, options: ErrorOptions = {}) {
    super(
      "ssh_connection_lost",
      `The SSH connection to ${where} dropped while the command ran, so its outcome is unknown. Check on the ` +
        "host whether it took effect before running it again.",
      options,
    );
    this.name = "SshConnectionLostError";
  }
}

/** A target description cannot be routed (e.g. pct-exec without an owning host or vmid). */
export class TransportRouteError extends OikosError {
  constructor(slug: string, problem: string, options: ErrorOptions = {}) {
    super(
      "transport_route_invalid",
      `Target ${slug} cannot be reached: ${problem}. Fix the target's transport in the inventory.`,
      options,
    );
    this.name = "TransportRouteError";
  }
}

/** `qm guest exec` answered with something other than its JSON result (agent down, VM stopped). */
export class GuestAgentError extends OikosError {
  constructor(vmid: number, host: string, detail: string, options: ErrorOptions = {}) {
    super(
      "qm_guest_exec_failed",
      `qm guest exec for VM ${vmid} on ${host} gave no result (${detail}). Is the VM running and the QEMU guest ` +
        `agent installed and started in it? Check with \`qm agent ${vmid} ping\` on ${host}.`,
      options,
    );
    this.name = "GuestAgentError";
  }
}

/** The configured private key cannot be used (unreadable, unsupported format, wrong passphrase). */
export class SshKeyInvalidError extends OikosError {
  constructor(reason: string, options: ErrorOptions = {}) {
    super(
      "ssh_key_invalid",
      `The SSH private key configured for oikos cannot be used: ${reason}. Use an OpenSSH or PEM private key ` +
        "file (e.g. from `ssh-keygen -t ed25519`) and check its passphrase.",
      options,
    );
    this.name = "SshKeyInvalidError";
  }
}

/** oikos is stopping: the pool's connections are closed, so a command asked now does not start. */
export class SshPoolClosedError extends OikosError {
  constructor() {
    super(
      "ssh_pool_closed",
      "oikos is stopping: its SSH connections are closed, so this command did not start. " +
        "It is decided again after the restart.",
    );
    this.name = "SshPoolClosedError";
  }
}
