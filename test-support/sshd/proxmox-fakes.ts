/**
 * Proxmox's `pct` and `qm guest exec` for lab hosts (toolbox scripts): they run the command on the lab
 * host itself as the lab user and record the vmid in $OIKOS_LAB_STATE, so tests can route pct-exec
 * and qm-guest-exec targets through a real sshd without Proxmox.
 */

/** Proxmox's `pct exec <vmid> -- cmd…`, simulated: runs cmd on the host and records the vmid. */
export const FAKE_PCT = `#!/bin/sh
[ "$1" = exec ] || { echo "fake pct: only exec" >&2; exit 2; }
vmid=$2; shift 2; [ "$1" = "--" ] && shift
echo "$vmid" >> "$OIKOS_LAB_STATE/pct-calls"
exec "$@"
`;

/** Proxmox's `qm guest exec <vmid> [--timeout N] -- cmd…`: runs cmd and prints the agent's JSON. */
export const FAKE_QM = String.raw`#!/bin/sh
[ "$1 $2" = "guest exec" ] || { echo "fake qm: only guest exec" >&2; exit 2; }
vmid=$3; shift 3
if [ "$vmid" = 999 ]; then echo "VM 999 qmp command 'guest-ping' failed - got timeout" >&2; exit 255; fi
if [ "$vmid" = 998 ]; then echo "agent config: password=hunter2-guest" >&2; exit 255; fi
while [ "$1" != "--" ]; do shift; done; shift
echo "$vmid" >> "$OIKOS_LAB_STATE/qm-calls"
out=$(mktemp); err=$(mktemp)
"$@" >"$out" 2>"$err"; code=$?
json() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' "$1" | awk 'BEGIN{ORS=""} {if (NR>1) print "\\n"; print} END{if (NR>0) print "\\n"}'; }
printf '{\n   "exitcode" : %d,\n   "exited" : 1,\n   "out-data" : "%s",\n   "err-data" : "%s"\n}\n' "$code" "$(json "$out")" "$(json "$err")"
rm -f "$out" "$err"
`;
