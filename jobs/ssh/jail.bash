# oikos read-only jail (see jobs/ssh/jail-script.ts and README "The read-only jail").
# Run as: bash --posix --noprofile --norc -c "<this script>" oikos-jail "<command>"
# Only util-linux (unshare, mount, setpriv) and bash builtins; no file is written on the target.
# POSIX mode: no startup file ($BASH_ENV) is read, and an imported function cannot shadow a special
# builtin (exec, unset, export …: bash refuses to start instead); the other builtins used here are
# freed from imported functions first.
#
# 1. oikos-jail: enter a new user, mount and PID namespace (unshare --fork --kill-child). A login
#    that is not root maps its own uid and gid; root maps the identity of its own id map, written from
#    outside by a helper, so owners show as they do without the jail while nothing outside the
#    namespace is ptrace-reachable (no /proc/<pid>/root into another mount namespace) and no
#    superblock can be remounted.
# 2. oikos-jail-inner: one `mount --all` over a generated fstab: every mount remounted read-only and
#    nodev (keeping the flags the kernel locks), the harmless devices bound back with dev, private
#    tmpfs at /tmp, /var/tmp and /dev/shm. /proc is not remounted: ps, top and ss still see every
#    process, signals cannot reach them.
# 3. print the ready line on stderr, then setpriv: no_new_privs, no capabilities (root keeps
#    dac_read_search inside the namespace, to read what it reads without the jail), bash -c "$1".
# Any failure before the marker exits 125 with "oikos-jail:unavailable:<why>" and the command never runs.

unset -f printf read kill local

j_fail() {
  printf 'oikos-jail:unavailable:%s\n' "$1" >&2
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
  j_fail "$1 is missing (util-linux)"
}

if [[ $0 == oikos-jail ]]; then
  [[ -r /proc/self/uid_map ]] || j_fail "the kernel has no user namespaces (/proc/self/uid_map is missing)"
  j_tool unshare
  j_unshare=$REPLY
  j_ns=(--mount --propagation private --pid --fork --kill-child --keep-caps)
  if ((EUID == 0)); then
    j_m='' j_g=''
    while read -r j_a _ j_c; do j_m+="$j_a $j_a $j_c"$'\n'; done </proc/self/uid_map
    while read -r j_a _ j_c; do j_g+="$j_a $j_a $j_c"$'\n'; done </proc/self/gid_map
    j_p=$$
    # The helper writes the maps from outside, once the jail's bash asks from inside the new user
    # namespace: it blocks reading a pipe (descriptor 3, a process substitution: those are passed on
    # exec; a coproc's are not) instead of polling while unshare starts.
    exec 3> >(
      exec 2>/dev/null
      read -r _ || exit 0
      printf '%s' "$j_m" >"/proc/$j_p/uid_map" && printf '%s' "$j_g" >"/proc/$j_p/gid_map"
    )
    # -p: this bash starts before the maps are written, while its real and effective ids read
    # differently; without -p it would "drop privileges" to the unmapped id (65534) for good
    exec "$j_unshare" --user "${j_ns[@]}" -- "$BASH" --posix --noprofile --norc -p -c "$BASH_EXECUTION_STRING" oikos-jail-inner "$1" root
  fi
  exec "$j_unshare" --map-current-user "${j_ns[@]}" -- "$BASH" --posix --noprofile --norc -p -c "$BASH_EXECUTION_STRING" oikos-jail-inner "$1" user
fi
[[ $0 == oikos-jail-inner ]] || j_fail "started as $0"

if [[ $2 == root ]]; then
  # ask the helper outside for the id maps, then wait the moment it takes to write them
  printf '\n' >&3
  exec 3>&-
fi
until read -r _ </proc/self/gid_map; do
  ((SECONDS < 20)) || j_fail "the user namespace got no id map"
done
j_tool mount
j_mount=$REPLY
j_tool setpriv
j_setpriv=$REPLY

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
for j_d in null zero full random urandom tty; do
  [[ -c /dev/$j_d ]] && j_fstab+="/dev/$j_d /dev/$j_d none bind,ro,dev,nosuid,noexec${j_o:+,$j_o} 0 0"$'\n'
done
for j_d in /tmp /var/tmp /dev/shm; do
  [[ -d $j_d ]] && j_fstab+="oikos-jail $j_d tmpfs rw,nosuid,nodev,mode=1777,size=64m 0 0"$'\n'
done
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

# the command's bash reads no startup file either (as unjailed, where env -u removes them)
unset BASH_ENV ENV
printf 'oikos-jail:ready\n' >&2 || exit 125
j_keep=-all
# who logged in, as the outer stage saw it ($EUID here was read before the maps existed)
[[ $2 == root ]] && j_keep=-all,+dac_read_search
exec "$j_setpriv" --no-new-privs --inh-caps=-all --ambient-caps=-all --bounding-set="$j_keep" -- bash --noprofile --norc -c "$1"
