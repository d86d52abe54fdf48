import type { JailGrant, SocketService } from "../../policy/jail-grant.ts";
import {
  type DiagnosticArea,
  type DiagnosticLab,
  type DiagnosticRow,
  diagnosticRowSchema,
  type LabFixture,
} from "./schema.ts";

/**
 * The daily-diagnostics corpus (issues #27 and #34): what a homelab operator runs every day on a
 * Proxmox/ZFS/Docker host, each with the grants its proof spec names. The proof must let ≥ 97 %
 * of the rows run with nobody asked (classified read_only with exactly these grants), and the
 * jail lab runs every row it can here, jailed and unjailed, expecting the same output.
 *
 * Grants follow the resource, not the tool: reading a device names that device; `/proc/net` and
 * netlink read the host's network namespace (`netlink`); netfilter, conntrack and WireGuard reads
 * need CAP_NET_ADMIN over the host's namespace, which no user-namespace jail can hold, so their
 * specs send them unjailed by name (not `ethtool IFACE`: its wake-on-LAN line is reported hidden); the mount
 * table inside the jail is the jail's, so `df` and `findmnt` listing it run unjailed by name;
 * Proxmox's tools talk to pmxcfs over abstract sockets and to the node's daemons, so they run
 * unjailed by name too.
 */

const G = {
  zfs: { resource: "zfs" },
  blockDevices: { resource: "block_devices" },
  netlink: { resource: "netlink" },
  network: { resource: "network" },
  device: (path: string): JailGrant => ({ resource: "device", path }),
  socket: (service: SocketService): JailGrant => ({ resource: "socket", service }),
  unjailed: (needs: string, spec: string): JailGrant => ({ resource: "unjailed", needs, spec }),
} as const satisfies Record<string, JailGrant | ((...args: never[]) => JailGrant)>;

const NET_ADMIN = "CAP_NET_ADMIN";
const PROCESS_INFO = "other processes' descriptors and sockets (CAP_SYS_PTRACE)";
const KERNEL_LOG = "the kernel log (CAP_SYSLOG where kernel.dmesg_restrict is 1)";
const MOUNT_TABLE = "the machine's mount table (the jail's own lists every mount read-only)";

const PVE = "Proxmox cluster IPC";
const LXC = "LXC command sockets";
const PODMAN = "podman storage locks";

const here = (fixture: LabFixture = "none", command?: string, packages?: string[]): DiagnosticLab => ({
  runs: "here",
  fixture,
  ...(command ? { command } : {}),
  ...(packages ? { packages } : {}),
});
const notHere = (why: string): DiagnosticLab => ({ runs: "not_here", why });

const NO_ZFS = notHere("no ZFS here: this kernel has no zfs module and Debian main has no zfsutils-linux");
const NO_SMART = notHere("no SMART disk here: loop devices answer no ATA/SCSI SMART commands");
const NO_NVME = notHere("no NVMe device here");
const NO_LVM = notHere("no device-mapper in this kernel, so LVM cannot scan or report volumes");
const NO_MD = notHere("no MD RAID in this kernel");
const NO_WG = notHere("no WireGuard in this kernel");
const NO_SYSTEMD = notHere("PID 1 is not systemd here, so there is no systemd or D-Bus to ask");
const NO_DOCKER = notHere("no container engine runs here (the docker CLI alone has no daemon to ask)");
const NO_PODMAN = notHere("podman is not installed here");
const NO_PROXMOX = notHere("no Proxmox VE here: its tools need pmxcfs and the node's daemons");
const NO_CEPH = notHere("no Ceph cluster here");
const NO_CHRONY = notHere("no chronyd runs here (it needs to own the clock)");
const NO_INTERNET = notHere("no internet here: only loopback and test namespaces");
const NO_TMUX_SERVER = here("none", undefined, ["tmux"]);

type Row = [command: string, grants: readonly JailGrant[], lab: DiagnosticLab];

function area(name: DiagnosticArea, rows: readonly Row[]): DiagnosticRow[] {
  return rows.map(([command, grants, lab]) => ({
    command,
    area: name,
    risk: "read_only",
    grants: [...grants],
    lab,
  }));
}

const ROWS: DiagnosticRow[] = [
  ...area("zfs", [
    ["zfs list", [G.zfs], NO_ZFS],
    ["zfs list -t snapshot", [G.zfs], NO_ZFS],
    ["zfs list -o name,used,avail,refer,mountpoint", [G.zfs], NO_ZFS],
    ["zfs list -t snapshot -o name,creation -s creation", [G.zfs], NO_ZFS],
    ["zfs list -r -t filesystem rpool", [G.zfs], NO_ZFS],
    ["zfs get compression,compressratio tank", [G.zfs], NO_ZFS],
    ["zfs get -H -o value used rpool/data", [G.zfs], NO_ZFS],
    ["zfs get all rpool/data/vm-100-disk-0", [G.zfs], NO_ZFS],
    ["zpool status", [G.zfs], NO_ZFS],
    ["zpool status -x", [G.zfs], NO_ZFS],
    ["zpool status -v tank", [G.zfs], NO_ZFS],
    ["zpool list", [G.zfs], NO_ZFS],
    ["zpool list -v", [G.zfs], NO_ZFS],
    ["zpool iostat -v 1 3", [G.zfs], NO_ZFS],
    ["zpool get all tank", [G.zfs], NO_ZFS],
    ["zpool history tank | tail -n 20", [G.zfs], NO_ZFS],
    ["zfs version", [G.zfs], NO_ZFS],
    ["cat /proc/spl/kstat/zfs/arcstats", [], NO_ZFS],
  ]),
  ...area("smart_nvme", [
    ["smartctl -a /dev/sda", [G.device("/dev/sda")], NO_SMART],
    ["smartctl -H /dev/sda", [G.device("/dev/sda")], NO_SMART],
    ["smartctl -i /dev/nvme0", [G.device("/dev/nvme0")], NO_NVME],
    ["smartctl -x /dev/sdb", [G.device("/dev/sdb")], NO_SMART],
    ["smartctl -A /dev/sda", [G.device("/dev/sda")], NO_SMART],
    ["smartctl -l error /dev/sda", [G.device("/dev/sda")], NO_SMART],
    ["smartctl -l selftest /dev/sda", [G.device("/dev/sda")], NO_SMART],
    ["smartctl -a -d sat /dev/sdc", [G.device("/dev/sdc")], NO_SMART],
    ["smartctl --scan", [G.blockDevices], here()],
    ["nvme list", [G.blockDevices], here()],
    ["nvme smart-log /dev/nvme0", [G.device("/dev/nvme0")], NO_NVME],
    ["nvme id-ctrl /dev/nvme0", [G.device("/dev/nvme0")], NO_NVME],
    ["nvme error-log /dev/nvme0", [G.device("/dev/nvme0")], NO_NVME],
  ]),
  ...area("disks", [
    ["lsblk", [], here("loop_disk")],
    ["lsblk -f", [G.blockDevices], here("loop_disk")],
    ["lsblk -o NAME,SIZE,TYPE,MOUNTPOINT,MODEL", [], here("loop_disk")],
    ["lsblk -d -o NAME,ROTA,SIZE", [], here("loop_disk")],
    ["blkid", [G.blockDevices], here("loop_disk")],
    ["blkid /dev/sda1", [G.device("/dev/sda1")], here("loop_disk", "blkid {{partition}}")],
    ["fdisk -l", [G.blockDevices], here("loop_disk")],
    ["fdisk -l /dev/sda", [G.device("/dev/sda")], here("loop_disk", "fdisk -l {{disk}}")],
    ["parted -l", [G.blockDevices], here("loop_disk")],
    ["parted /dev/sda print", [G.device("/dev/sda")], here("loop_disk", "parted {{disk}} print")],
    [
      "parted -s /dev/sda unit GB print",
      [G.device("/dev/sda")],
      here("loop_disk", "parted -s {{disk}} unit GB print"),
    ],
    ["sfdisk -l /dev/sda", [G.device("/dev/sda")], here("loop_disk", "sfdisk -l {{disk}}")],
    ["sfdisk -d /dev/sda", [G.device("/dev/sda")], here("loop_disk", "sfdisk -d {{disk}}")],
    ["wipefs /dev/sdb", [G.device("/dev/sdb")], here("loop_disk", "wipefs {{disk}}")],
    [
      "dd if=/dev/sda bs=512 count=1 2>/dev/null | xxd | head -n 4",
      [G.device("/dev/sda")],
      here("loop_disk", "dd if={{disk}} bs=512 count=1 2>/dev/null | xxd | head -n 4"),
    ],
    [
      "head -c 512 /dev/sda | od -A x -t x1z | head",
      [G.device("/dev/sda")],
      here("loop_disk", "head -c 512 {{disk}} | od -A x -t x1z | head"),
    ],
    ["tune2fs -l /dev/sda1", [G.device("/dev/sda1")], here("loop_disk", "tune2fs -l {{partition}}")],
    ["dumpe2fs -h /dev/sda1", [G.device("/dev/sda1")], here("loop_disk", "dumpe2fs -h {{partition}}")],
    ["e2fsck -n /dev/sdb1", [G.device("/dev/sdb1")], here("loop_disk", "e2fsck -n {{partition}}")],
    [
      "hdparm -I /dev/sda",
      [G.device("/dev/sda")],
      notHere("no ATA disk here (loop devices answer no IDENTIFY)"),
    ],
    ["df -h", [G.unjailed(MOUNT_TABLE, "df")], here()],
    ["df -i", [G.unjailed(MOUNT_TABLE, "df")], here()],
    ["df -hT", [G.unjailed(MOUNT_TABLE, "df")], here()],
    ["du -sh /var/lib/vz", [], here("none", "du -sh /usr/share/doc")],
    ["du -h --max-depth=1 /var/log | sort -h", [], here()],
    ["findmnt", [G.unjailed(MOUNT_TABLE, "findmnt")], here()],
    ["findmnt -t ext4,xfs", [G.unjailed(MOUNT_TABLE, "findmnt")], here()],
    ["cat /proc/partitions", [], here("loop_disk")],
    ["ls -l /dev/disk/by-id/", [G.blockDevices], here("loop_disk")],
    ["lsblk -J -o NAME,SERIAL,SIZE", [], here("loop_disk")],
  ]),
  ...area("lvm", [
    ["lvs", [G.blockDevices], NO_LVM],
    ["vgs", [G.blockDevices], NO_LVM],
    ["pvs", [G.blockDevices], NO_LVM],
    ["lvs -a -o +devices", [G.blockDevices], NO_LVM],
    ["lvdisplay", [G.blockDevices], NO_LVM],
    ["vgdisplay", [G.blockDevices], NO_LVM],
    ["pvdisplay", [G.blockDevices], NO_LVM],
    ["vgs -o +vg_free", [G.blockDevices], NO_LVM],
  ]),
  ...area("mdadm", [
    ["cat /proc/mdstat", [], here()],
    ["mdadm --detail /dev/md0", [G.device("/dev/md0")], NO_MD],
    ["mdadm --examine /dev/sda1", [G.device("/dev/sda1")], NO_MD],
    ["mdadm --detail --scan", [G.blockDevices], NO_MD],
  ]),
  ...area("kernel_log", [
    ["dmesg", [G.unjailed(KERNEL_LOG, "dmesg")], here()],
    ["dmesg -T | tail -n 50", [G.unjailed(KERNEL_LOG, "dmesg")], here()],
    ["dmesg --level=err,warn", [G.unjailed(KERNEL_LOG, "dmesg")], here()],
    ["dmesg -T | grep -i error", [G.unjailed(KERNEL_LOG, "dmesg")], here()],
    ["journalctl -k -b", [], here()],
    ['journalctl -k --since "1 hour ago"', [], here()],
  ]),
  ...area("firewall", [
    ["nft list ruleset", [G.unjailed(NET_ADMIN, "nft")], here("net_namespace")],
    ["nft list tables", [G.unjailed(NET_ADMIN, "nft")], here("net_namespace")],
    ["nft list table inet filter", [G.unjailed(NET_ADMIN, "nft")], here("net_namespace")],
    ["iptables -S", [G.unjailed(NET_ADMIN, "iptables")], here("net_namespace")],
    ["iptables -L -n -v", [G.unjailed(NET_ADMIN, "iptables")], here("net_namespace")],
    ["iptables -t nat -L -n", [G.unjailed(NET_ADMIN, "iptables")], here("net_namespace")],
    ["ip6tables -S", [G.unjailed(NET_ADMIN, "ip6tables")], here("net_namespace")],
    ["iptables-save", [G.unjailed(NET_ADMIN, "iptables-save")], here("net_namespace")],
  ]),
  ...area("wireguard", [
    ["wg show", [G.unjailed(NET_ADMIN, "wg")], NO_WG],
    ["wg show wg0", [G.unjailed(NET_ADMIN, "wg")], NO_WG],
    ["wg show all latest-handshakes", [G.unjailed(NET_ADMIN, "wg")], NO_WG],
    ["wg show wg0 transfer", [G.unjailed(NET_ADMIN, "wg")], NO_WG],
  ]),
  ...area("sockets", [
    ["ss -tlnp", [G.unjailed(PROCESS_INFO, "ss")], here("net_namespace")],
    ["ss -tunap", [G.unjailed(PROCESS_INFO, "ss")], here("net_namespace")],
    ["ss -s", [G.netlink], here("net_namespace")],
    ["ss -tln", [G.netlink], here("net_namespace")],
    ["ss -o state established '( dport = :ssh or sport = :ssh )'", [G.netlink], here("net_namespace")],
    ["lsof -n -i :22", [G.unjailed(PROCESS_INFO, "lsof")], here("net_namespace")],
    ["lsof -nP -iTCP -sTCP:LISTEN", [G.unjailed(PROCESS_INFO, "lsof")], here("net_namespace")],
    ["lsof -n +L1", [G.unjailed(PROCESS_INFO, "lsof")], here()],
    ["netstat -tlnp", [G.unjailed(PROCESS_INFO, "netstat")], here("net_namespace")],
    ["fuser -v -n tcp 22", [G.unjailed(PROCESS_INFO, "fuser")], here("net_namespace")],
  ]),
  ...area("systemd", [
    ["systemctl status nginx", [G.socket("systemd")], NO_SYSTEMD],
    ["systemctl status", [G.socket("systemd")], NO_SYSTEMD],
    ["systemctl --failed", [G.socket("systemd")], NO_SYSTEMD],
    ["systemctl list-units --type=service --state=running", [G.socket("systemd")], NO_SYSTEMD],
    ["systemctl list-timers", [G.socket("systemd")], NO_SYSTEMD],
    ["systemctl show -p ActiveState,SubState nginx", [G.socket("systemd")], NO_SYSTEMD],
    ["systemctl is-active nginx", [G.socket("systemd")], NO_SYSTEMD],
    ["systemctl is-enabled nginx", [G.socket("systemd")], NO_SYSTEMD],
    ["systemctl cat nginx", [G.socket("systemd")], NO_SYSTEMD],
    ["systemctl list-unit-files --state=enabled", [G.socket("systemd")], NO_SYSTEMD],
    ["systemd-analyze blame", [G.socket("systemd")], NO_SYSTEMD],
    ["journalctl -u nginx -n 100 --no-pager", [], here()],
    ["journalctl -b -p err", [], here()],
    ["journalctl --since today -u pveproxy", [], here()],
    ["journalctl --disk-usage", [], here()],
    ["journalctl -u ssh --since yesterday | tail -n 50", [], here()],
    ["timedatectl status", [G.socket("dbus")], NO_SYSTEMD],
    ["hostnamectl", [G.socket("dbus")], NO_SYSTEMD],
  ]),
  ...area("containers", [
    ["docker ps", [G.socket("docker")], NO_DOCKER],
    ["docker ps -a", [G.socket("docker")], NO_DOCKER],
    ["docker ps --format '{{.Names}}\\t{{.Status}}'", [G.socket("docker")], NO_DOCKER],
    ["docker inspect nginx", [G.socket("docker")], NO_DOCKER],
    ["docker logs --tail 100 nginx", [G.socket("docker")], NO_DOCKER],
    ["docker images", [G.socket("docker")], NO_DOCKER],
    ["docker stats --no-stream", [G.socket("docker")], NO_DOCKER],
    ["docker compose ps", [G.socket("docker")], NO_DOCKER],
    ["docker compose logs --tail=50", [G.socket("docker")], NO_DOCKER],
    ["docker system df", [G.socket("docker")], NO_DOCKER],
    ["docker network ls", [G.socket("docker")], NO_DOCKER],
    ["docker volume ls", [G.socket("docker")], NO_DOCKER],
    ["podman ps -a", [G.unjailed(PODMAN, "podman")], NO_PODMAN],
    ["podman images", [G.unjailed(PODMAN, "podman")], NO_PODMAN],
  ]),
  ...area("proxmox", [
    ["pvesh get /cluster/resources --type vm", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["pvesh get /nodes", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["pvesh get /nodes/pve1/qemu --output-format json", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["pvesh get /cluster/status", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["pvesh get /nodes/pve1/storage --output-format json-pretty", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["pvesh get /cluster/tasks --limit 20", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["pvesh get /version", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["pvesh ls /nodes/pve1", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["pvesh get /nodes/pve1/status --noborder", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["pvesh get /cluster/resources --type storage --human-readable", [G.unjailed(PVE, "pvesh")], NO_PROXMOX],
    ["qm list", [G.unjailed(PVE, "qm")], NO_PROXMOX],
    ["qm config 100", [G.unjailed(PVE, "qm")], NO_PROXMOX],
    ["qm status 100", [G.unjailed(PVE, "qm")], NO_PROXMOX],
    ["qm status 100 --verbose", [G.unjailed(PVE, "qm")], NO_PROXMOX],
    ["qm pending 100", [G.unjailed(PVE, "qm")], NO_PROXMOX],
    ["qm cloudinit dump 100 user", [G.unjailed(PVE, "qm")], NO_PROXMOX],
    ["qm listsnapshot 100", [G.unjailed(PVE, "qm")], NO_PROXMOX],
    ["pct list", [G.unjailed(PVE, "pct")], NO_PROXMOX],
    ["pct config 101", [G.unjailed(PVE, "pct")], NO_PROXMOX],
    ["pct status 101", [G.unjailed(PVE, "pct")], NO_PROXMOX],
    ["pct listsnapshot 101", [G.unjailed(PVE, "pct")], NO_PROXMOX],
    ["pvesm status", [G.unjailed(PVE, "pvesm")], NO_PROXMOX],
    ["pvesm list local", [G.unjailed(PVE, "pvesm")], NO_PROXMOX],
    ["pvesm path local:iso/debian-12.iso", [G.unjailed(PVE, "pvesm")], NO_PROXMOX],
    ["pvecm status", [G.unjailed(PVE, "pvecm")], NO_PROXMOX],
    ["pvecm nodes", [G.unjailed(PVE, "pvecm")], NO_PROXMOX],
    ["ha-manager status", [G.unjailed(PVE, "ha-manager")], NO_PROXMOX],
    ["pveum user list", [G.unjailed(PVE, "pveum")], NO_PROXMOX],
    ["pveum group list", [G.unjailed(PVE, "pveum")], NO_PROXMOX],
    ["pveum role list", [G.unjailed(PVE, "pveum")], NO_PROXMOX],
    ["pve-firewall status", [G.unjailed(PVE, "pve-firewall")], NO_PROXMOX],
    ["pveversion -v", [], NO_PROXMOX],
    ["ceph -s", [G.network], NO_CEPH],
    ["ceph osd tree", [G.network], NO_CEPH],
    ["ceph health detail", [G.network], NO_CEPH],
    ["ceph df", [G.network], NO_CEPH],
    ["lxc-ls -f", [G.unjailed(LXC, "lxc-ls")], NO_PROXMOX],
    ["cat /etc/pve/qemu-server/100.conf", [], NO_PROXMOX],
    ["grep -r 'scsi0' /etc/pve/qemu-server/", [], NO_PROXMOX],
  ]),
  ...area("networking", [
    ["ip a", [G.netlink], here("net_namespace")],
    ["ip -br addr", [G.netlink], here("net_namespace")],
    ["ip route", [G.netlink], here("net_namespace")],
    ["ip -6 route show", [G.netlink], here("net_namespace")],
    ["ip link show", [G.netlink], here("net_namespace")],
    ["ip neigh", [G.netlink], here("net_namespace")],
    ["ip -s link show eth0", [G.netlink], here("net_namespace", "ip -s link show {{interface}}")],
    ["ip rule list", [G.netlink], here("net_namespace")],
    ["bridge link show", [G.netlink], here("net_namespace")],
    ["bridge fdb show", [G.netlink], here("net_namespace")],
    ["ethtool eth0", [G.netlink], here("net_namespace", "ethtool {{interface}}", ["ethtool"])],
    ["ethtool -S eth0", [G.netlink], here("net_namespace", "ethtool -S {{interface}}", ["ethtool"])],
    ["ethtool -i eth0", [G.netlink], here("net_namespace", "ethtool -i {{interface}}", ["ethtool"])],
    ["ethtool -k eth0", [G.netlink], here("net_namespace", "ethtool -k {{interface}}", ["ethtool"])],
    ["conntrack -L", [G.unjailed(NET_ADMIN, "conntrack")], here("net_namespace", undefined, ["conntrack"])],
    ["conntrack -C", [G.unjailed(NET_ADMIN, "conntrack")], here("net_namespace", undefined, ["conntrack"])],
    ["chronyc tracking", [G.socket("chrony")], NO_CHRONY],
    ["chronyc sources -v", [G.socket("chrony")], NO_CHRONY],
    ["sshd -T", [], here()],
    ["sshd -t", [], here()],
    ["ping -c 3 192.168.1.1", [G.network], here("none", "ping -c 1 127.0.0.1", ["iputils-ping"])],
    ["dig +short example.com", [G.network], NO_INTERNET],
    [
      "curl -sS -o /dev/null -w '%{http_code}\\n' https://192.168.1.10:8006/",
      [G.network],
      here("listener", "curl -sS -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:{{port}}/"),
    ],
    ["curl -sI https://pve.lan:8006/", [G.network], here("listener", "curl -sI http://127.0.0.1:{{port}}/")],
    ["cat /etc/resolv.conf", [], here()],
    ["cat /etc/network/interfaces", [], here()],
  ]),
  ...area("dry_run", [
    [
      "rsync -n -av /srv/data/ /mnt/backup/data/",
      [],
      here("none", "rsync -n -av /etc/apt/ /var/tmp/apt-copy/"),
    ],
    ["rsync -avn --delete /srv/a/ /srv/b/", [], here("none", "rsync -avn --delete /etc/apt/ /etc/default/")],
    ["zfs destroy -nv tank/old@snap", [G.zfs], NO_ZFS],
    ["zfs destroy -nvr tank/backups@%", [G.zfs], NO_ZFS],
    ["mke2fs -n /dev/sdb1", [G.device("/dev/sdb1")], here("loop_disk", "mke2fs -n {{partition}}")],
    ["git -c core.fsmonitor=false clean -n", [], here()],
    ["git -c core.fsmonitor=false clean -nd", [], here()],
    ["apt-get -s upgrade", [], here()],
    ["apt list --upgradable", [], here()],
  ]),
  ...area("help_version", [
    ["rsync --version", [], here()],
    ["smartctl --version", [], here()],
    ["docker --version", [], here()],
    ["nft --version", [], here()],
    ["zpool --help", [], NO_ZFS],
    ["qm help", [G.unjailed(PVE, "qm")], NO_PROXMOX],
    ["curl --help", [], here()],
    ["ip --help", [], here()],
    ["rsync --help", [], here()],
    ["tar --version", [], here()],
  ]),
  ...area("files", [
    ["rg -n error /var/log/syslog", [], here("none", undefined, ["ripgrep"])],
    ["rg -i 'out of memory' /var/log", [], here("none", undefined, ["ripgrep"])],
    ["rg -l 'PermitRootLogin' /etc/ssh", [], here("none", undefined, ["ripgrep"])],
    ["namei -l /var/lib/vz/images", [], here("none", "namei -l /var/lib/dpkg/info")],
    ["tail -n 100 /var/log/syslog", [], here()],
    ["grep -i error /var/log/syslog | tail -n 20", [], here()],
    ["zgrep -i 'oom' /var/log/syslog.2.gz", [], here()],
    ["cat /etc/fstab", [], here()],
    ["ls -la /etc/cron.d", [], here()],
    ["crontab -l", [], here()],
    ["stat /var/lib/vz", [], here("none", "stat /usr/lib")],
    ["find /var/log -name '*.log' -mtime -1", [], here()],
  ]),
  ...area("host", [
    ["tmux ls", [G.socket("tmux")], NO_TMUX_SERVER],
    ["uptime", [], here()],
    ["free -h", [], here()],
    ["top -bn1 | head -n 20", [], here()],
    ["ps aux --sort=-%mem | head", [], here()],
    ["ps -eo pid,ppid,cmd,%mem,%cpu --sort=-%cpu | head", [], here()],
    ["vmstat 1 5", [], here("none", "vmstat 1 2")],
    ["iostat -x 1 3", [], here("none", "iostat -x 1 2", ["sysstat"])],
    ["sensors", [], notHere("no hardware sensors in this virtual machine")],
    ["cat /proc/loadavg", [], here()],
    ["uname -a", [], here()],
    ["lscpu", [], here()],
    ["lspci", [], here("none", undefined, ["pciutils"])],
    ["who", [], here()],
    ["last -n 10", [], here()],
    ["w", [], here()],
    ["dpkg -l | grep zfs", [], here()],
    ["cat /etc/os-release", [], here()],
  ]),
];

/** Every row, checked against the schema when the module loads. */
export const DIAGNOSTICS: readonly DiagnosticRow[] = ROWS.map((row) => diagnosticRowSchema.parse(row));
