# oikos read-only jail (see jobs/ssh/jail-script.ts and docs/jail.md).
# Run as: bash --posix --noprofile --norc -c "<this script>" oikos-jail "<command>" key=value…
# Only util-linux (unshare, mount, setpriv), coreutils' readlink, perl-base (Essential on Debian) and
# bash builtins; no file is written on the target. POSIX mode: no startup file ($BASH_ENV) is read,
# and an imported function cannot shadow a special builtin (exec, unset, export …: bash refuses to
# start instead); the other builtins used here are freed from imported functions first.
#
# Settings (each one word after the command; written by jail-script.ts from the run's grants):
#   net=private|host   private: a network namespace of its own (no route, loopback down, the host's
#                      abstract Unix sockets out of reach); host: the host's (network/netlink grants)
#   unix=0|1           1: Unix sockets may be made (a socket grant): every pathname socket the host
#                      lists in /proc/net/unix, except the keep= ones, is covered with /dev/null
#   keep=<pattern>     a granted service's socket, a bash pattern (repeatable)
#   dev=<path>         a device node granted read-only (repeatable); block devices, nvme and sg nodes;
#                      a partition brings its disk (read-only), where its partition table entry is
#   blockdevs=1        every block device read-only (not optical or floppy drives)
#   kmsg=1 zfs=1       /dev/kmsg (only where kernel.dmesg_restrict is 0) / /dev/zfs, read-only
#                      (a granted node that does not exist is no error: the command finds it
#                      missing, as it would unjailed)
#   ptrace=1           other processes' descriptors: never possible in a user namespace (says why)
#   netraw=1           with net=host (the network grant): cap_net_raw stays in the bounding set, so a
#                      program with file capabilities (Debian's ping: cap_net_raw+ep) may start; the
#                      kernel refuses to exec one whose capabilities the bounding set would cut. The
#                      capability is the jail's user namespace's, which owns no network namespace:
#                      raw sockets in the host's still need it in the machine's own (EPERM), so ping
#                      uses an ICMP datagram socket, where net.ipv4.ping_group_range allows the login
#                      (systemd's default: every group), as it does unjailed
#   mem=<MiB> procs=<n> cpu=<s> scratch=<MiB>   bounds: address space per process, processes, CPU
#                      seconds per process, the private scratch space (TMPDIR)
#   bpf=<program>      the seccomp program (jail-seccomp.ts)  perl=<code>  its installer (jail-filter.pl)
#
# 1. oikos-jail: enter new user, mount, PID, IPC (and network) namespaces (unshare --fork --kill-child:
#    whatever the command leaves behind dies with it). A login that is not root maps its own uid and
#    gid; root maps the identity of its own id map, written from outside by a helper, so owners show
#    as they do without the jail while nothing outside is ptrace-reachable and no superblock can be
#    remounted.
# 2. oikos-jail-inner: bounds (ulimit; a PID namespace's own pid_max on Linux >= 6.14), then one
#    `mount --all` over a generated fstab: every mount remounted read-only and nodev (keeping the
#    flags the kernel locks), null/zero/full/random/urandom and the granted devices bound back with
#    dev, a private tmpfs on an empty directory as scratch space (TMPDIR). /tmp, /var/tmp, /dev/shm
#    and /proc stay the machine's, read-only.
# 3. setpriv: no_new_privs, no capabilities (root keeps dac_read_search inside the namespace, to read
#    what it reads without the jail; with netraw=1, net_raw there, which reaches nothing); then perl installs Landlock (no file opened for writing outside
#    the scratch space and /dev/null & co — device nodes and FIFOs are not protected by a read-only
#    mount) and the seccomp filter (socket families, datagram socket pairs, io_uring, keyrings, loop
#    ioctls), prints the ready line and
#    runs bash -c "$1" as its child: perl stays the PID namespace's init, so the command is not PID 1
#    (which ignores signals it has no handler for, and which systemd's tools take for the machine's init).
# Any failure before the ready line exits 125 with "oikos-jail:<kind>:<why>" and the command never
# runs: unavailable (this target cannot jail), transient (try again), grant:<resource> (this grant).

unset -f printf read kill local

j_fail() {
  printf 'oikos-jail:unavailable:%s\n' "$1" >&2
  exit 125
}
j_transient() {
  printf 'oikos-jail:transient:%s\n' "$1" >&2
  exit 125
}
j_grant() {
  printf 'oikos-jail:grant:%s:%s\n' "$1" "$2" >&2
  exit 125
}
j_tool() {
  local d
  for d in /usr/bin /bin /usr/sbin /sbin; do
    [[ -x $d/$1 ]] && {
      REPLY=$d/$1
      return 0
    }
  done
  j_fail "$1 is missing ($2)"
}

j_cmd=$1
shift
j_net=private j_unix=0 j_blockdevs=0 j_kmsg=0 j_zfs=0 j_ptrace=0 j_netraw=0
j_mem=2048 j_procs=1024 j_cpu=600 j_scratch=64 j_bpf='' j_perlcode=''
j_devs=() j_keep=() j_hide=()
for j_a in "$@"; do
  case $j_a in
  net=private | net=host) j_net=${j_a#net=} ;;
  unix=[01]) j_unix=${j_a#unix=} ;;
  keep=/*) j_keep+=("${j_a#keep=}") ;;
  hide=/*) j_hide+=("${j_a#hide=}") ;;
  dev=/dev/*) j_devs+=("${j_a#dev=}") ;;
  blockdevs=[01]) j_blockdevs=${j_a#blockdevs=} ;;
  kmsg=[01]) j_kmsg=${j_a#kmsg=} ;;
  netraw=[01]) j_netraw=${j_a#netraw=} ;;
  zfs=[01]) j_zfs=${j_a#zfs=} ;;
  ptrace=[01]) j_ptrace=${j_a#ptrace=} ;;
  mem=[1-9]*) j_mem=${j_a#mem=} ;;
  procs=[1-9]*) j_procs=${j_a#procs=} ;;
  cpu=[1-9]*) j_cpu=${j_a#cpu=} ;;
  scratch=[1-9]*) j_scratch=${j_a#scratch=} ;;
  bpf=*) j_bpf=${j_a#bpf=} ;;
  perl=*) j_perlcode=${j_a#perl=} ;;
  who=root | who=user) ;;
  *) j_fail "unknown setting ${j_a%%=*}" ;;
  esac
done
[[ -n $j_bpf && -n $j_perlcode ]] || j_fail "no seccomp program was sent"
((j_ptrace == 0)) || j_grant process_info "reading other processes' descriptors (ss -p, lsof) needs CAP_SYS_PTRACE in the machine's own user namespace, which no jail has"

if [[ $0 == oikos-jail ]]; then
  [[ -r /proc/self/uid_map ]] || j_fail "the kernel has no user namespaces (/proc/self/uid_map is missing)"
  if read -r j_max </proc/sys/user/max_user_namespaces 2>/dev/null && [[ $j_max == 0 ]]; then
    j_fail "user namespaces are switched off here (user.max_user_namespaces = 0)"
  fi
  j_tool unshare util-linux
  j_unshare=$REPLY
  # --ipc: SysV message queues, semaphores and shared memory and POSIX message queues are kernel
  # objects outside any file system: in the machine's IPC namespace a command could leave them behind,
  # send to another process's queue or attach a root-owned segment and write it
  j_ns=(--mount --propagation private --pid --ipc --fork --kill-child --keep-caps)
  [[ $j_net == private ]] && j_ns+=(--net)
  if ((j_unix == 1)); then
    # the host's pathname sockets, read here in the host's network namespace, to be covered inside
    declare -A j_seen=()
    while read -r _ _ _ _ _ _ _ j_p; do
      [[ $j_p == /* && -z ${j_seen[$j_p]-} ]] || continue
      j_seen[$j_p]=1
      for j_k in "${j_keep[@]}"; do
        # shellcheck disable=SC2053 # the kept socket is a pattern
        [[ $j_p == $j_k ]] && continue 2
      done
      set -- "$@" "hide=$j_p"
    done </proc/net/unix
  fi
  if ((EUID == 0)); then
    j_m='' j_g=''
    while read -r j_a _ j_c; do j_m+="$j_a $j_a $j_c"$'\n'; done </proc/self/uid_map
    while read -r j_a _ j_c; do j_g+="$j_a $j_a $j_c"$'\n'; done </proc/self/gid_map
    j_p=$$
    # The helper writes the maps from outside once the jail's bash asks from inside the new user
    # namespace (descriptor 3), and answers on descriptor 4 when they are written, so nothing polls.
    # 4 is a pipe opened read-write (the answer is read back by whoever asked); 3 is a process
    # substitution. Both are passed on exec (a coproc's descriptors and their dups are not).
    exec 4<> <(:)
    exec 3> >(
      exec 2>/dev/null
      read -r _ || exit 0
      if printf '%s' "$j_m" >"/proc/$j_p/uid_map" && printf '%s' "$j_g" >"/proc/$j_p/gid_map"; then
        printf 'ok\n' >&4
      else
        printf 'failed\n' >&4
      fi
    )
    # -p: this bash starts before the maps are written, while its real and effective ids read
    # differently; without -p it would "drop privileges" to the unmapped id (65534) for good
    exec "$j_unshare" --user "${j_ns[@]}" -- "$BASH" --posix --noprofile --norc -p -c "$BASH_EXECUTION_STRING" oikos-jail-inner "$j_cmd" "who=root" "$@"
  fi
  exec "$j_unshare" --map-current-user "${j_ns[@]}" -- "$BASH" --posix --noprofile --norc -p -c "$BASH_EXECUTION_STRING" oikos-jail-inner "$j_cmd" "who=user" "$@"
fi
[[ $0 == oikos-jail-inner ]] || j_fail "started as $0"
# who logged in, as the outer stage saw it ($EUID here was read before the maps existed)
j_who=user
for j_a in "$@"; do [[ $j_a == who=root ]] && j_who=root; done

if [[ $j_who == root ]]; then
  printf '\n' >&3
  read -r j_a <&4 || j_a=''
  exec 3>&- 4<&-
  [[ $j_a == ok ]] || j_fail "the user namespace got no id map (writing /proc/PID/uid_map from outside failed)"
fi
j_tool mount util-linux
j_mount=$REPLY
j_tool setpriv util-linux
j_setpriv=$REPLY
j_tool perl perl-base
j_perl=$REPLY
j_tool readlink coreutils
j_readlink=$REPLY
case $HOSTTYPE in
x86_64) j_prctl=157 ;;
aarch64 | riscv64) j_prctl=167 ;;
arm* | i[3-6]86) j_prctl=172 ;;
powerpc64le | ppc64le) j_prctl=171 ;;
*) j_fail "no seccomp filter for this architecture ($HOSTTYPE)" ;;
esac

# Bounds. A PID namespace has its own pid_max from Linux 6.14 on; before that the file is the
# machine's, so it is written only on a kernel that has the per-namespace one. RLIMIT_NPROC holds for
# a login that is not root (counted in this user namespace); the kernel exempts root from it.
j_pids=none
read -r j_rel </proc/sys/kernel/osrelease
j_major=${j_rel%%.*}
j_minor=${j_rel#*.}
j_minor=${j_minor%%[!0-9]*}
if ((j_major > 6 || (j_major == 6 && j_minor >= 14))); then
  j_pidmax=$((j_procs < 301 ? 301 : j_procs + 1))
  printf '%s\n' "$j_pidmax" 2>/dev/null >/proc/sys/kernel/pid_max && j_pids=pid_max:$((j_pidmax - 1))
fi
if [[ $j_who == user ]]; then
  ulimit -u "$j_procs" || j_fail "could not bound the number of processes"
  [[ $j_pids == none ]] && j_pids=nproc:$j_procs
fi
ulimit -v $((j_mem * 1024)) && ulimit -t "$j_cpu" && ulimit -c 0 || j_fail "could not set the resource limits"

# The fstab: every mount point remounted ro,nodev with the flags it has (the kernel refuses to clear
# locked ones), "/" written "/." because mount --all skips "/"; autofs triggers are left alone.
j_fstab=$'\n'
j_devopts=''
j_root=''
while read -r _ _ _ _ j_mp j_o j_rest; do
  j_type=${j_rest#*- }
  j_type=${j_type%% *}
  [[ $j_type == autofs ]] && continue
  j_o=,$j_o,
  j_o=${j_o//,rw,/,}
  j_o=${j_o//,ro,/,}
  j_o=${j_o#,}
  j_o=${j_o%,}
  [[ $j_mp == /dev ]] && j_devopts=$j_o
  [[ $j_mp == / ]] && j_mp=/. j_root=1
  j_fstab+="none $j_mp none remount,bind,ro,nodev${j_o:+,$j_o} 0 0"$'\n'
done </proc/self/mountinfo
[[ -n $j_root ]] || j_fail "/proc/self/mountinfo does not list /"
j_o=,$j_devopts,
j_o=${j_o//,nodev,/,}
j_o=${j_o#,}
j_o=${j_o%,}
declare -A j_bound=()
j_bind() { # a device node back with dev: read-only for the command through Landlock, not the mount
  [[ -z ${j_bound[$1]-} ]] || return 0
  j_bound[$1]=1
  j_fstab+="$1 $1 none bind,ro,dev,nosuid,noexec${j_o:+,$j_o} 0 0"$'\n'
}
for j_d in null zero full random urandom; do
  [[ -c /dev/$j_d ]] && j_bind "/dev/$j_d"
done
# granted devices, resolved: only a block device, an NVMe controller or a SCSI generic node
for j_d in "${j_devs[@]}"; do
  # a device that does not exist is not an error: the command finds it missing, as it would unjailed
  j_r=$("$j_readlink" -e -- "$j_d") || continue
  [[ $j_r == /dev/* && $j_r != *[[:space:]]* ]] || j_grant device "$j_d is not a device node under /dev"
  if [[ -b $j_r ]] || { [[ -c $j_r ]] && [[ ${j_r#/dev/} == nvme+([0-9]) || ${j_r#/dev/} == sg+([0-9]) ]]; }; then
    j_bind "$j_r"
    # a partition's own entry in the partition table (PARTLABEL, PARTUUID, its type) is on its disk:
    # without the disk, blkid leaves those out and says nothing; so the disk too, read-only
    j_a=${j_r#/dev/}
    j_a=/sys/class/block/${j_a//\//!}
    if [[ -b $j_r && -e $j_a/partition ]] && j_a=$("$j_readlink" -e -- "$j_a/.."); then
      j_a=/dev/${j_a##*/}
      j_a=${j_a//!//}
      [[ -b $j_a ]] && j_bind "$j_a"
    fi
  else
    j_grant device "$j_d is not a disk (only block devices, NVMe controllers and SCSI generic nodes are granted)"
  fi
done
if ((j_blockdevs == 1)); then
  for j_d in /sys/class/block/*; do
    j_d=${j_d##*/}
    j_d=${j_d//!//}
    [[ $j_d == sr* || $j_d == fd* || $j_d == *[[:space:]]* ]] && continue
    [[ -b /dev/$j_d ]] && j_bind "/dev/$j_d"
  done
fi
if ((j_kmsg == 1)); then
  read -r j_a </proc/sys/kernel/dmesg_restrict 2>/dev/null || j_a=1
  [[ $j_a == 0 ]] || j_grant kernel_log "the kernel keeps its log to CAP_SYSLOG (kernel.dmesg_restrict = 1), which no jail has"
  [[ -c /dev/kmsg ]] && j_bind /dev/kmsg
fi
# without the ZFS module there is no /dev/zfs: zfs then says so itself, as it would unjailed
((j_zfs == 1)) && [[ -c /dev/zfs ]] && j_bind /dev/zfs
# sockets of other services, covered (a socket grant): connect() then finds no socket there
# (a path with whitespace or a backslash is written with fstab's octal escapes, which mount unmangles)
for j_d in "${j_hide[@]}"; do
  [[ -S $j_d ]] || continue
  j_d=${j_d//\\/\\134}
  j_d=${j_d// /\\040}
  j_d=${j_d//$'\t'/\\011}
  j_d=${j_d//$'\n'/\\012}
  j_fstab+="/dev/null $j_d none bind,ro,nosuid,nodev,noexec 0 0"$'\n'
done
# the scratch space: a private tmpfs on the first empty directory, so it hides nothing
j_scratchdir=''
for j_d in /var/local /var/opt /var/mail /srv /media /mnt /opt /sys/kernel/config /sys/fs/fuse/connections; do
  [[ -d $j_d && ! -L $j_d && $j_d != *[[:space:]]* ]] || continue
  for j_a in "$j_d"/* "$j_d"/.[!.]* "$j_d"/..?*; do
    [[ -e $j_a || -L $j_a ]] && continue 2
  done
  j_scratchdir=$j_d
  break
done
[[ -n $j_scratchdir ]] || j_fail "no empty directory to hold the private scratch space (tried /var/local, /var/opt, /var/mail, /srv, /media, /mnt, /opt)"
j_fstab+="oikos-jail $j_scratchdir tmpfs rw,nosuid,nodev,mode=1777,size=${j_scratch}m 0 0"$'\n'
# the last line is a comment, and its last "/" leaves mount calling itself "mount" in messages
j_fstab+='#/mount'

# mount reads that fstab from its own argument list (/proc/self/cmdline, a regular file: nothing is
# written anywhere): the fstab is its argv[0]. A single argument may not pass 128 KiB.
((${#j_fstab} < 120000)) || j_fail "too many mounts to remount in one pass (${#j_fstab} bytes of fstab)"
(exec -a "$j_fstab" "$j_mount" --all --internal-only --no-canonicalize --fstab /proc/self/cmdline 2>/dev/null)
j_rc=$?
if ((j_rc != 0)); then
  # again for the reason: what succeeded succeeds again, the failing line says why
  j_why="mount exited $j_rc"
  while IFS= read -r j_line; do
    [[ $j_line == mount:* && $j_line != *"parse error"* ]] || continue
    j_why=${j_line#mount: }
    break
  done < <(exec -a "$j_fstab" "$j_mount" --all --internal-only --no-canonicalize --fstab /proc/self/cmdline 2>&1 >/dev/null)
  j_fail "$j_why"
fi

# Landlock: what may be opened for writing (everything else may not, devices and FIFOs included)
j_rules="$j_scratchdir=all"
for j_d in null zero full random urandom; do
  [[ -c /dev/$j_d ]] && j_rules+=$'\n'"/dev/$j_d=write"
done

# the command's bash reads no startup file either (as unjailed, where env -u removes them)
unset BASH_ENV ENV
export TMPDIR=$j_scratchdir
j_keepcaps=-all
[[ $j_who == root ]] && j_keepcaps=-all,+dac_read_search
# (a capability of this user namespace only: the host's network namespace is the machine's)
[[ $j_net == host ]] && ((j_netraw == 1)) && j_keepcaps+=,+net_raw
j_ready="oikos-jail:ready engine=unshare net=$j_net pids=$j_pids scratch=$j_scratchdir"
exec "$j_setpriv" --no-new-privs --inh-caps=-all --ambient-caps=-all --bounding-set="$j_keepcaps" -- \
  "$j_perl" -e "$j_perlcode" -- "$j_prctl" "$j_bpf" "$j_rules" "$j_unix" "$j_ready" bash --noprofile --norc -c "$j_cmd"
