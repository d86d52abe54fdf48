#!/bin/sh
# Installs the system packages the test suite needs and npm cannot provide: OpenSSH's sshd for the
# real-SSH lab (test-support/sshd), and Prometheus Alertmanager for the alert intake test
# (test-support/alertmanager starts its own on a loopback port with its own data folder; the
# package's system service is not used); strace and the unprivileged user `oikos-oracle` for the
# classifier's execution oracle (test-support/oracle); sudo for the plan-preview lab's login that
# sudo makes root (test-support/sshd/sudo-lab-user.ts); busybox for the fake Proxmox's Alpine-like
# guests (test-support/proxmox: ash, no bash). With --bench, also ansible and pssh, the baselines of
# test-support/bench/jobs/fanout.bench.ts. Debian/Ubuntu, run as root (CI does). Safe to run again: only what
# is missing gets installed.
set -eu

usage() {
  echo "usage: $0 [--bench]   (as root; --bench adds ansible and pssh for the fan-out benchmark)"
}

bench=0
for arg in "$@"; do
  case "$arg" in
    --bench) bench=1 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" != 0 ]; then
  echo "install-test-deps: needs root (apt-get, and the sshd lab itself runs sshd as root)" >&2
  exit 1
fi

missing=""
need() { # need <package> <file that proves it is installed>
  if [ ! -x "$2" ]; then missing="$missing $1"; fi
}
need openssh-server /usr/sbin/sshd
need openssh-client /usr/bin/ssh-keygen
need coreutils /usr/bin/timeout
need procps /usr/bin/pgrep
need prometheus-alertmanager /usr/bin/prometheus-alertmanager
need strace /usr/bin/strace
need util-linux /usr/bin/unshare
need sudo /usr/bin/sudo
need busybox /bin/busybox
# the daily-diagnostics lab of the read-only jail (jobs/ssh/jail-diagnostics.test.ts): the tools its
# rows run on real resources (a loop disk, a network namespace with nftables/iptables rules, tmux)
need nftables /usr/sbin/nft
need iptables /usr/sbin/iptables
need parted /usr/sbin/parted
need fdisk /usr/sbin/sfdisk
need iproute2 /usr/bin/ip
need ethtool /usr/sbin/ethtool
need conntrack /usr/sbin/conntrack
need tmux /usr/bin/tmux
need lsof /usr/bin/lsof
need psmisc /usr/bin/fuser
need net-tools /usr/bin/netstat
need iputils-ping /usr/bin/ping
need curl /usr/bin/curl
need ripgrep /usr/bin/rg
need sysstat /usr/bin/iostat
need pciutils /usr/bin/lspci
need smartmontools /usr/sbin/smartctl
need nvme-cli /usr/sbin/nvme
need xxd /usr/bin/xxd
if [ "$bench" = 1 ]; then
  need ansible /usr/bin/ansible
  need pssh /usr/bin/parallel-ssh
fi

if [ -n "$missing" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-test-deps: no apt-get here; install these yourself:$missing" >&2
    exit 1
  fi
  echo "install-test-deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  # shellcheck disable=SC2086 # word splitting of the package list is intended
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq $missing
else
  echo "install-test-deps: everything present"
fi

# The execution oracle runs fuzzed commands as this user: no password, no login shell, no home, no sudo.
if ! id -u oikos-oracle >/dev/null 2>&1; then
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin oikos-oracle
fi

# sshd's privilege-separation directory; tmpfs /run loses it on reboot
mkdir -p /run/sshd
chmod 0755 /run/sshd
