/** jobs/ssh public surface: run a command on any target, with pooled SSH underneath. */
export { createSshTransport, type SshTransportConfig } from "./create-ssh-transport.ts";
export {
  GuestAgentError,
  HostKeyChangedError,
  HostKeyUnknownError,
  SshAuthFailedError,
  SshConnectionFailedError,
  SshConnectionLostError,
  SshConnectionRefusedError,
  SshConnectTimeoutError,
  SshKeyInvalidError,
  TransportRouteError,
} from "./errors.ts";
export {
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TIMEOUT_MS,
  type ExecOptions,
  type ExecResult,
  type OutputStream,
} from "./exec-result.ts";
export { fingerprintOf, type HostKeyStore, InMemoryHostKeyStore } from "./host-key-store.ts";
export { KnownHostsFileStore } from "./known-hosts-store.ts";
export { type SshAuth, SshAuthSchema } from "./ssh-auth.ts";
export { SshPool, type SshPoolOptions, type SshPoolStats } from "./ssh-pool.ts";
export {
  endpointKey,
  hostPort,
  type SshEndpoint,
  SshEndpointSchema,
  type Target,
  TargetSchema,
  type Transport,
  TransportSchema,
} from "./target.ts";
export { TransportRouter } from "./transport-router.ts";
