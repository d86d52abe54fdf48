import type { SshAuth } from "../../jobs/ssh/ssh-auth.ts";
import type { Target } from "../../jobs/ssh/target.ts";
import type { LabHost } from "./ssh-lab.ts";

/** The `ssh` target for a lab host; slug defaults to `host:<name>`. */
export function labSshTarget(host: LabHost, slug = `host:${host.name}`): Target {
  return { slug, transport: "ssh", ssh: { host: host.host, port: host.port, username: host.username } };
}

/** The key every lab host accepts, as pool credentials. */
export function labAuth(host: LabHost): SshAuth {
  return { privateKey: host.privateKey };
}
