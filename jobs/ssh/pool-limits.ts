/**
 * Open SSH connections one worker keeps across all targets, unless `ssh.maxConnections` says
 * otherwise: a 100-host fleet stays connected between fan-outs (an idle ssh2 connection holds well
 * under 100 kB). Its own file so config can name it without loading ssh2.
 */
export const DEFAULT_MAX_CONNECTIONS = 128;
