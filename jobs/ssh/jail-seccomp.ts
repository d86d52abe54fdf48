/**
 * The read-only jail's seccomp program (classic BPF over `struct seccomp_data`), generated here and
 * installed on the target by jail-filter.pl. One program serves every architecture it knows: it
 * checks `seccomp_data.arch` first and kills a process of any other (a foreign ABI would read other
 * syscall numbers). Default allow, with explicit refusals of what reaches outside the jail without a
 * file write: sockets of families not granted (a pathname Unix socket is reachable through a
 * read-only mount, and AF_VSOCK, AF_PACKET … reach beyond the network namespace), io_uring (its
 * IORING_OP_SOCKET / CONNECT would bypass the socket check), pidfd_getfd, and the loop-device ioctls
 * that need no privilege (LOOP_CLR_FD detaches a disk from a read-only descriptor). Unless Unix
 * sockets are granted, a socket pair only of stream or seqpacket type: a datagram pair's socket can
 * still `sendto()` or `connect()` any pathname datagram socket (/dev/log, /run/systemd/notify, a
 * service's own), which a read-only mount does not stop. The keyring calls (add_key, request_key,
 * keyctl): the login's user keyring and its session keyring outlive the jail, so a key added,
 * updated or unlinked there is a change outside it. memfd_create and memfd_secret: a memfd's pages
 * are no address space until mapped, so memory held in memfds is outside RLIMIT_AS, the jail's
 * per-process memory bound (the scratch tmpfs has a size; a memfd has none). System V shmget for
 * the same reason: a detached segment's pages are no address space either, and the IPC namespace's
 * own limit (kernel.shmall) cannot be set by a login mapped as itself.
 */

/** Address families (linux/socket.h). */
export const AF_UNIX = 1;
export const AF_INET = 2;
export const AF_INET6 = 10;
export const AF_NETLINK = 16;

const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;

/** The errno a refused socket family gets: tools print "Address family not supported by protocol". */
export const REFUSED_FAMILY_ERRNO = EAFNOSUPPORT;

interface Abi {
  /** AUDIT_ARCH_* */
  arch: number;
  socket: number;
  socketpair: number;
  ioctl: number;
  /** add_key, request_key, keyctl. */
  keyrings: readonly [number, number, number];
  memfdCreate: number;
  /** shmget, and the ipc(2) multiplexer of 32-bit ABIs (refused whole: its call is an argument). */
  shmget: readonly number[];
  /** The multiplexer of 32-bit ABIs: its arguments are behind a pointer, so it is refused whole. */
  socketcall?: number;
  /** x86_64: syscall numbers with this bit are the x32 ABI, refused whole. */
  x32Bit?: number;
}

/** Numbers from each architecture's unistd tables (the io_uring, pidfd_getfd ones are shared). */
const ABIS: readonly Abi[] = [
  {
    arch: 0xc000003e,
    socket: 41,
    socketpair: 53,
    ioctl: 16,
    keyrings: [248, 249, 250],
    memfdCreate: 319,
    shmget: [29],
    x32Bit: 0x40000000,
  }, // x86_64
  {
    arch: 0x40000003,
    socket: 359,
    socketpair: 360,
    ioctl: 54,
    keyrings: [286, 287, 288],
    memfdCreate: 356,
    shmget: [395, 117],
    socketcall: 102,
  }, // i386
  {
    arch: 0xc00000b7,
    socket: 198,
    socketpair: 199,
    ioctl: 29,
    keyrings: [217, 218, 219],
    memfdCreate: 279,
    shmget: [194],
  }, // aarch64
  {
    arch: 0x40000028,
    socket: 281,
    socketpair: 288,
    ioctl: 54,
    keyrings: [309, 310, 311],
    memfdCreate: 385,
    shmget: [307],
    socketcall: 102,
  }, // arm (EABI)
  {
    arch: 0xc00000f3,
    socket: 198,
    socketpair: 199,
    ioctl: 29,
    keyrings: [217, 218, 219],
    memfdCreate: 279,
    shmget: [194],
  }, // riscv64
  {
    arch: 0xc0000015,
    socket: 326,
    socketpair: 333,
    ioctl: 54,
    keyrings: [269, 270, 271],
    memfdCreate: 360,
    shmget: [395, 117],
    socketcall: 102,
  }, // ppc64le
];
/**
 * Socket types a pair may have without a Unix-socket grant (linux/net.h): stream (1) and seqpacket
 * (5), each alone or with SOCK_CLOEXEC (0x80000) and/or SOCK_NONBLOCK (0x800), the only flags the
 * kernel takes there.
 */
const PAIR_TYPES: readonly number[] = [1, 5].flatMap((type) =>
  [0, 0x800, 0x80000, 0x80800].map((flags) => type | flags),
);
const IO_URING = [425, 426, 427];
const PIDFD_GETFD = 438;
const MEMFD_SECRET = 447;
/** LOOP_SET_FD … LOOP_CONFIGURE and LOOP_CTL_ADD … LOOP_CTL_GET_FREE (linux/loop.h). */
const LOOP_IOCTLS: readonly (readonly [number, number])[] = [
  [0x4c00, 0x4c0a],
  [0x4c80, 0x4c82],
];

/** seccomp_data offsets (little-endian: the low word of an argument comes first). */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;
const ARG1 = 24;

// classic BPF opcodes
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JGT_K = 0x25;
const RET_K = 0x06;

type Target = string;
type Instruction =
  | { op: "ld"; offset: number }
  | { op: "jeq" | "jge" | "jgt"; k: number; yes: Target; no?: Target }
  | { op: "ret"; k: number }
  | { op: "label"; name: Target };

export interface SeccompPolicy {
  /** Socket families `socket(2)` may create; every other is refused with EAFNOSUPPORT. */
  families: readonly number[];
}

/**
 * Each policy's program, assembled once per process: it is a pure function of the families (in
 * their order), there are only a few sets of them, and every jailed command asks for one.
 */
const ASSEMBLED = new Map<string, string>();

/** The program as jail-filter.pl reads it: `code,jt,jf,k` per instruction, `;` between. */
export function seccompProgramText(policy: SeccompPolicy): string {
  const key = policy.families.join(",");
  let text = ASSEMBLED.get(key);
  if (text === undefined) {
    text = assemble(program(policy))
      .map(([code, jt, jf, k]) => `${code},${jt},${jf},${k}`)
      .join(";");
    ASSEMBLED.set(key, text);
  }
  return text;
}

function program(policy: SeccompPolicy): Instruction[] {
  const errno = (value: number): Instruction => ({ op: "ret", k: SECCOMP_RET_ERRNO | value });
  const out: Instruction[] = [{ op: "ld", offset: ARCH }];
  for (const [i, abi] of ABIS.entries()) out.push({ op: "jeq", k: abi.arch, yes: `abi${i}` });
  out.push({ op: "ret", k: SECCOMP_RET_KILL_PROCESS });
  ABIS.forEach((abi, i) => {
    const p = `abi${i}`;
    out.push({ op: "label", name: p }, { op: "ld", offset: NR });
    if (abi.x32Bit !== undefined) out.push({ op: "jge", k: abi.x32Bit, yes: "enosys" });
    out.push({ op: "jeq", k: abi.socket, yes: "socket" });
    out.push({ op: "jeq", k: abi.socketpair, yes: "socketpair" });
    out.push({ op: "jeq", k: abi.ioctl, yes: "ioctl" });
    if (abi.socketcall !== undefined) out.push({ op: "jeq", k: abi.socketcall, yes: "enosys" });
    for (const nr of IO_URING) out.push({ op: "jeq", k: nr, yes: "enosys" });
    for (const nr of abi.keyrings) out.push({ op: "jeq", k: nr, yes: "enosys" });
    for (const nr of [abi.memfdCreate, MEMFD_SECRET, ...abi.shmget])
      out.push({ op: "jeq", k: nr, yes: "enosys" });
    out.push({ op: "jeq", k: PIDFD_GETFD, yes: "eperm" });
    out.push({ op: "ret", k: SECCOMP_RET_ALLOW });
  });
  out.push({ op: "label", name: "socket" }, { op: "ld", offset: ARG0 });
  for (const family of policy.families) out.push({ op: "jeq", k: family, yes: "allow" });
  out.push(errno(EAFNOSUPPORT));
  // a connected pair made from nothing reaches nothing outside, as long as it cannot be pointed
  // elsewhere: a datagram socket can (sendto, connect), a stream or seqpacket one cannot (EISCONN)
  out.push({ op: "label", name: "socketpair" }, { op: "ld", offset: ARG0 });
  if (policy.families.includes(AF_UNIX)) {
    out.push({ op: "jeq", k: AF_UNIX, yes: "allow" }, errno(EAFNOSUPPORT));
  } else {
    out.push({ op: "jeq", k: AF_UNIX, yes: "pairtype" }, errno(EAFNOSUPPORT));
    out.push({ op: "label", name: "pairtype" }, { op: "ld", offset: ARG1 });
    for (const type of PAIR_TYPES) out.push({ op: "jeq", k: type, yes: "allow" });
    out.push(errno(EAFNOSUPPORT));
  }
  out.push({ op: "label", name: "ioctl" }, { op: "ld", offset: ARG1 });
  LOOP_IOCTLS.forEach(([low, high], i) => {
    out.push({ op: "jge", k: low, yes: `loop${i}`, no: `next${i}` });
    out.push({ op: "label", name: `loop${i}` }, { op: "jgt", k: high, yes: `next${i}`, no: "eperm" });
    out.push({ op: "label", name: `next${i}` });
  });
  out.push({ op: "label", name: "allow" }, { op: "ret", k: SECCOMP_RET_ALLOW });
  out.push({ op: "label", name: "enosys" }, errno(ENOSYS));
  out.push({ op: "label", name: "eperm" }, errno(EPERM));
  return out;
}

/** Resolves labels to the forward offsets classic BPF jumps take (0-255 instructions ahead). */
function assemble(source: Instruction[]): [number, number, number, number][] {
  const positions = new Map<Target, number>();
  let count = 0;
  for (const ins of source) {
    if (ins.op === "label") positions.set(ins.name, count);
    else count++;
  }
  const out: [number, number, number, number][] = [];
  for (const ins of source) {
    if (ins.op === "label") continue;
    const here = out.length;
    const offset = (target: Target | undefined): number => {
      if (target === undefined) return 0;
      const at = positions.get(target);
      if (at === undefined) throw new Error(`seccomp: no label ${target}`);
      const jump = at - here - 1;
      if (jump < 0 || jump > 255) throw new Error(`seccomp: jump to ${target} out of range (${jump})`);
      return jump;
    };
    if (ins.op === "ld") out.push([LD_W_ABS, 0, 0, ins.offset]);
    else if (ins.op === "ret") out.push([RET_K, 0, 0, ins.k >>> 0]);
    else {
      const code = ins.op === "jeq" ? JEQ_K : ins.op === "jge" ? JGE_K : JGT_K;
      out.push([code, offset(ins.yes), offset(ins.no), ins.k >>> 0]);
    }
  }
  return out;
}
