export interface SshdConfigInput {
  port: number;
  hostKeyPath: string;
  pidFile: string;
  authorizedKeysFile: string;
  username: string;
  toolboxDir: string;
  stateDir: string;
  hostName: string;
  /** Appended to the version banner so the fixture knows the banner it reads is its own sshd. */
  bannerTag: string;
  /** Sessions are chrooted here (ChrootDirectory). */
  chrootDirectory?: string;
  /** Every session runs this instead, with the command in $SSH_ORIGINAL_COMMAND (ForceCommand). */
  forceCommand?: string;
}

/** sshd_config for one simulated host. The settings are the ones TESTING.md found necessary. */
export function renderSshdConfig(input: SshdConfigInput): string {
  return [
    `Port ${input.port}`,
    "ListenAddress 127.0.0.1",
    `HostKey ${input.hostKeyPath}`,
    `PidFile ${input.pidFile}`,
    `AuthorizedKeysFile ${input.authorizedKeysFile}`,
    `AllowUsers ${input.username}`,
    "UsePAM no",
    "PubkeyAuthentication yes",
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "StrictModes no",
    "PrintMotd no",
    "PrintLastLog no",
    "UseDNS no",
    "MaxStartups 100:30:200",
    // toolbox first, so scenario scripts named qm / pct / docker shadow anything real
    `SetEnv PATH=${input.toolboxDir}:/usr/local/bin:/usr/bin:/bin OIKOS_LAB_HOST=${input.hostName} OIKOS_LAB_STATE=${input.stateDir}`,
    `VersionAddendum ${input.bannerTag}`,
    ...(input.chrootDirectory ? [`ChrootDirectory ${input.chrootDirectory}`] : []),
    ...(input.forceCommand ? [`ForceCommand ${input.forceCommand}`] : []),
    "LogLevel INFO",
    "",
  ].join("\n");
}
