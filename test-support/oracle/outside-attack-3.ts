/**
 * The third outside attack (2026-12-02, /tmp/attack of its author): commands the proof called
 * read_only that had an effect through the jailed path. Shared by the proof-level test
 * (policy/outside-attack-3.test.ts) and the execution oracle (jobs/ssh/jail-borrow.test.ts).
 */

/** Pieces whose own spec grants a resource (network, a service socket, a run outside the jail). */
export const GRANTORS = [
  "docker ps >/dev/null 2>&1",
  "systemctl status >/dev/null 2>&1",
  "tmux ls >/dev/null 2>&1",
  "virsh list >/dev/null 2>&1",
  "chronyc tracking >/dev/null 2>&1",
  "timedatectl >/dev/null 2>&1",
  "curl -s http://127.0.0.1:18080/u3 >/dev/null",
  "ping -c1 127.0.0.1 >/dev/null",
  "dig @127.0.0.1 x >/dev/null",
  "iptables -S >/dev/null",
] as const;

/** Pieces with no grant of their own that would use one they borrowed. */
export const BORROWERS = [
  "psql -h /tmp/attack/sock/pg -c 'select 1'",
  "psql -h 127.0.0.1 -p 18080 -c 'select 1'",
  "mysql -h 127.0.0.1 -P 18080 -e 'select 1'",
  "git -C /tmp/attack/repo2 remote show -n origin",
  "git -C /tmp/attack/repo2 log --no-show-signature -1",
  "ls -la /tmp/attack/sock",
] as const;

/** Every grantor joined with every borrower, in both orders and with `&&`, `;` and `|`. */
export function borrowAttacks(): string[] {
  const out: string[] = [];
  for (const grantor of GRANTORS)
    for (const borrower of BORROWERS) {
      out.push(`${grantor}; ${borrower}`, `${borrower}; ${grantor}`, `${grantor} && ${borrower}`);
      out.push(`${grantor.replace(/ >\/dev\/null( 2>&1)?$/, "")} | ${borrower}`);
    }
  return out;
}

/** The attacker's rows that must not auto-run (ids of its corpus in brackets). */
export const MUST_ASK = [
  // A2: grants borrowed by a piece without its own.
  "docker ps >/dev/null 2>&1; psql -h /tmp/attack/sock/pg -c 'select 1'", // [282]
  "curl -s http://127.0.0.1:18080/u3 >/dev/null; psql -h 127.0.0.1 -p 18080 -c 'select 1'", // [271]
  "curl -s http://127.0.0.1:18080/u8 | psql -h 127.0.0.1 -p 18080 -c 'select 1'", // [303]
  "docker ps; redis-cli -h 127.0.0.1 -p 18080 ping", // [294]
  "curl -s http://127.0.0.1:18080/ >/dev/null; ssh -p 18080 127.0.0.1 true", // [297]
  // A3/A5/A6: git contacts the remote through the transport its config names, or any URL.
  "git -C /tmp/attack/repo2 remote show origin", // [996]
  "cd /tmp/attack/repo2 && git remote show origin", // [997]
  "git -C /tmp/attack/repo2 remote -v show origin",
  "curl -s http://127.0.0.1:18080/g1 >/dev/null; git -C /tmp/attack/repo2 remote show origin", // [998]
  "timedatectl >/dev/null 2>&1; git -C /tmp/attack/repo3 remote show origin", // [2010]
  "systemctl status >/dev/null 2>&1; git -C /tmp/attack/repo3 remote show origin", // [2011]
  "docker ps >/dev/null 2>&1; git -C /tmp/attack/repo3 remote show origin", // [2012]
  "git -C /tmp/attack/repo remote show http://127.0.0.1:18080/anyurl", // [2020]
  "git -C /tmp/attack/repo remote show -n http://127.0.0.1:18080/anyurl",
  "git -C /tmp/attack/repo remote show ssh://127.0.0.1:18080/x", // [2022]
  "git -C /tmp/attack/repo remote show -n ../other",
  // A1/C: a client pointed at any socket, host or port.
  "docker -H unix:///tmp/attack/sock/moved.sock ps", // [285]
  "docker -H 'unix:///tmp/attack/sock/sp ace.sock' ps", // [284]
  "docker --host unix:///tmp/attack/sock/moved.sock version", // [289]
  "docker --host=tcp://127.0.0.1:18080 ps",
  "docker -H ssh://127.0.0.1:18080 ps",
  "docker --context evil ps",
  "redis-cli -h 127.0.0.1 -p 25 get 'HELO x'", // [1024]
  "redis-cli -p 18080 ping",
  "redis-cli -u redis://127.0.0.1:18080 info",
  "redis-cli --port 18080 info",
  "ssh -p 18080 127.0.0.1 true", // [1025]
  "ssh -o Port=18080 127.0.0.1 true",
  // B1: reverse DNS for every rule, from outside the jail.
  "iptables -L", // [1]
  "iptables -L -v", // [2]
  "iptables --list", // [3]
  "iptables -L INPUT", // [4]
  "iptables -L -x", // [10]
  "iptables -vL", // [11]
  "iptables -L --line-numbers", // [13]
  "ip6tables -L", // [8]
  "ip6tables -L -v", // [9]
  "iptables -t nat -L",
  // B2: pvesh GET handlers that act, run unjailed.
  "pvesh get /nodes/localhost/query-url-metadata --url http://127.0.0.1:18080/pvesh-meta", // [61]
  "pvesh get /cluster/acme/meta --directory http://127.0.0.1:18080/acme-dir", // [62]
  "pvesh get /cluster/acme/tos --directory http://127.0.0.1:18080/acme-dir", // [63]
  "pvesh get /nodes/localhost/scan/nfs --server 127.0.0.1", // [64]
  "pvesh get /nodes/localhost/scan/cifs --server 127.0.0.1", // [65]
  "pvesh get /nodes/localhost/scan/iscsi --portal 127.0.0.1", // [66]
  "pvesh get /nodes/localhost/scan/glusterfs --server 127.0.0.1", // [67]
  "pvesh get /nodes/localhost/scan/pbs --server 127.0.0.1 --username a@pbs --password x", // [68]
  "pvesh get /nodes/localhost/apt/changelog --name bash", // [69]
  "pvesh get /nodes/localhost/storage/local/file-restore/list --volume x --filepath /", // [71]
  "pvesh get /nodes/localhost/qemu/100/agent/file-read --file /etc/shadow", // [72]
  "pvesh ls /nodes/localhost/scan/nfs --server 127.0.0.1",
  "pvesh get /cluster/nextid",
  "pvesh get /nodes/localhost/report",
  "pvesh get /cluster/resources --url http://127.0.0.1:18080/",
  // D: a silent lie: names resolved only where the jail has DNS.
  "ss -tlr", // [326]
  // Were look-alikes of the `ssh -p` rows: a command on another host runs outside every jail of
  // oikos and on after the client here is stopped (outside attack of 2026-12, second round).
  "ssh nas uptime",
  "ssh -n nas 'zpool status -x'",
] as const;

/** Look-alikes that stay read_only: the same tools in the spelling the proof keeps. */
export const STILL_READ_ONLY = [
  "docker ps",
  "docker ps | grep web",
  "docker ps; docker images",
  "docker ps -q | xargs docker inspect",
  "cd /opt/stack && docker compose ps",
  "curl -s http://127.0.0.1:18080/ | jq .",
  "curl -s http://127.0.0.1:18080/ | head -n 5 | wc -l",
  "dig a.example; dig b.example",
  "echo $(curl -s http://127.0.0.1:18080/)",
  "systemctl status ssh | tail -n 20",
  "iptables -L -n",
  "iptables -nvL",
  "iptables -L -n -v --line-numbers",
  "ip6tables -L -n",
  "iptables -S",
  "iptables -S; iptables -L -n",
  "git -C /tmp/attack/repo2 remote show -n origin",
  "git remote -v",
  "git -C /tmp/attack/repo2 remote -v show",
  "git -C /tmp/attack/repo2 log --no-show-signature -1",
  "redis-cli info",
  "redis-cli get session:1",
  "pvesh get /cluster/resources --type vm",
  "pvesh get /cluster/resources --type vm --output-format json",
  "pvesh get /cluster/status",
  "pvesh get /nodes",
  "pvesh get /nodes/pve1/status",
  "pvesh get /nodes/pve1/qemu --full 1",
  "pvesh get /nodes/pve1/qemu/100/config",
  "pvesh get /nodes/pve1/lxc/101/status/current",
  "pvesh get /nodes/pve1/storage/local/status",
  "pvesh get /nodes/pve1/tasks --limit 20 --errors 1",
  "pvesh get /cluster/ha/status/current",
  "pvesh get /version",
  "pvesh get /pools",
  "pvesh ls /nodes/pve1",
  "pvesh usage /nodes/pve1/scan/nfs --verbose",
  "ss -tln",
  "ss -tlnp",
] as const;
