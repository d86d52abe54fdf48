/** The dedicated unprivileged user every oracle command runs as (no sudo, no login, no home). */
export const ORACLE_USER = "oikos-oracle";

/**
 * Every syscall the oracle traces, with what attempting it means. One table: strace's trace list
 * (runner.ts), the judge's violations (judge.ts) and the observed risk floor (observe.ts) all read it.
 * - `runs`: executes a program the trace names (judged against the programs the classifier named);
 * - `opens`: opens a path (a violation only when for writing);
 * - `removes`: removes, replaces or truncates what exists;
 * - `changes`: creates, links, or changes modes, owners, times or attributes;
 * - `system`: acts on the machine, not a file (mounts, modules, clocks, namespaces, power), or
 *   reaches a program or file by a handle the trace cannot show;
 * - `powers`: reboots or replaces the running kernel;
 * - `signals`: sends a signal (judged by target: its own tree is fine);
 * - `traces`: ptrace (attaching to or writing into another process);
 * - `spawns`: creates a process (followed to know the command's own tree);
 * - `connects`: opens a connection or sends a datagram (judged by address family: the network);
 * - `exits`: a process ends (a process of the command still running after bash ends outlived it).
 */
export type SyscallEffect =
  | "runs"
  | "opens"
  | "removes"
  | "changes"
  | "system"
  | "powers"
  | "signals"
  | "traces"
  | "spawns"
  | "connects"
  | "exits";

export const SYSCALL_EFFECTS = {
  execve: "runs",
  execveat: "system",
  open: "opens",
  openat: "opens",
  openat2: "opens",
  creat: "opens",
  open_by_handle_at: "system",
  unlink: "removes",
  unlinkat: "removes",
  rmdir: "removes",
  rename: "removes",
  renameat: "removes",
  renameat2: "removes",
  truncate: "removes",
  ftruncate: "removes",
  link: "changes",
  linkat: "changes",
  symlink: "changes",
  symlinkat: "changes",
  mkdir: "changes",
  mkdirat: "changes",
  mknod: "changes",
  mknodat: "changes",
  chmod: "changes",
  fchmod: "changes",
  fchmodat: "changes",
  chown: "changes",
  fchown: "changes",
  lchown: "changes",
  fchownat: "changes",
  utime: "changes",
  utimes: "changes",
  utimensat: "changes",
  futimesat: "changes",
  setxattr: "changes",
  lsetxattr: "changes",
  fsetxattr: "changes",
  removexattr: "changes",
  lremovexattr: "changes",
  fremovexattr: "changes",
  mount: "system",
  umount2: "system",
  pivot_root: "system",
  chroot: "system",
  swapon: "system",
  swapoff: "system",
  reboot: "powers",
  kexec_load: "powers",
  kexec_file_load: "powers",
  init_module: "system",
  finit_module: "system",
  delete_module: "system",
  sethostname: "system",
  setdomainname: "system",
  settimeofday: "system",
  clock_settime: "system",
  adjtimex: "system",
  clock_adjtime: "system",
  acct: "system",
  quotactl: "system",
  setns: "system",
  unshare: "system",
  process_vm_writev: "system",
  move_mount: "system",
  fsopen: "system",
  fsmount: "system",
  open_tree: "system",
  mount_setattr: "system",
  ptrace: "traces",
  kill: "signals",
  tkill: "signals",
  tgkill: "signals",
  rt_sigqueueinfo: "signals",
  rt_tgsigqueueinfo: "signals",
  pidfd_send_signal: "signals",
  connect: "connects",
  sendto: "connects",
  exit_group: "exits",
  fork: "spawns",
  vfork: "spawns",
  clone: "spawns",
  clone3: "spawns",
} as const satisfies Record<string, SyscallEffect>;

export type TracedSyscall = keyof typeof SYSCALL_EFFECTS;

/** The syscalls strace records: every way to write, run, change or signal, and process creation. */
export const TRACED_SYSCALLS = Object.keys(SYSCALL_EFFECTS) as TracedSyscall[];

/** What attempting `syscall` means, or undefined for a syscall the oracle does not trace. */
export function effectOf(syscall: string): SyscallEffect | undefined {
  return Object.hasOwn(SYSCALL_EFFECTS, syscall) ? SYSCALL_EFFECTS[syscall as TracedSyscall] : undefined;
}
