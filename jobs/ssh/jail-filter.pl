# oikos read-only jail, last step (jail.bash runs it after setpriv): Landlock, then the seccomp
# filter, then the ready line, then the command as a child. perl-base only: no module is loaded.
# argv: prctl-number bpf landlock-rules unix ready-line command-words…
#   bpf: "code,jt,jf,k;…" (jail-seccomp.ts), packed here in this machine's byte order
#   landlock-rules: "path=all|write" lines: where files may be opened for writing (nothing else may)
#   unix: 1 when Unix sockets are granted; 0: the filter must refuse them, checked before the ready line
my ($prctl, $bpf, $rules, $unix, $ready, @cmd) = @ARGV;
sub fail { print STDERR "oikos-jail:unavailable:$_[0]\n"; exit 125 }
sub u64 { pack "LL", $_[0] % 4294967296, int($_[0] / 4294967296) }

# Landlock (syscalls 444-446 on every architecture): the access rights it knows, by ABI version
my $abi = syscall(444, 0, 0, 1);
$abi >= 1 or fail("the kernel has no Landlock ($!): without it a read-only mount does not keep device nodes and FIFOs from being written");
# write_file remove_dir remove_file make_char make_dir make_reg make_sock make_fifo make_block make_sym
my $handled = 2 | 16 | 32 | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096;
$handled |= 8192 if $abi >= 2;     # refer
$handled |= 16384 if $abi >= 3;    # truncate
my $write = 2 | ($abi >= 3 ? 16384 : 0);
# scopes (ABI 6): abstract Unix sockets and signals stay inside the jail
my $scoped = $abi >= 6 ? 3 : 0;
my $size = $abi >= 6 ? 24 : $abi >= 4 ? 16 : 8;
my $attr = substr(u64($handled) . u64(0) . u64($scoped), 0, $size);
my $ruleset = syscall(444, $attr, $size, 0);
$ruleset >= 0 or fail("landlock_create_ruleset: $!");
for my $line (split /\n/, $rules) {
  my ($path, $what) = $line =~ /^(.*)=(all|write)$/ or fail("bad landlock rule");
  # O_PATH | O_CLOEXEC
  sysopen(my $fh, $path, 0x200000 | 0x80000) or fail("open $path: $!");
  my $rule = u64($what eq "all" ? $handled : $write) . pack("l", fileno($fh));
  syscall(445, $ruleset, 1, $rule, 0) == 0 or fail("landlock_add_rule $path: $!");
  close $fh;
}
syscall($prctl, 38, 1, 0, 0, 0) == 0 or fail("PR_SET_NO_NEW_PRIVS: $!");
syscall(446, $ruleset, 0) == 0 or fail("landlock_restrict_self: $!");

# seccomp: PR_SET_SECCOMP, SECCOMP_MODE_FILTER, struct sock_fprog { unsigned short len; filter * }
my @ins = map { [split /,/] } split /;/, $bpf;
my $filter = join "", map { pack "SCCL", @$_ } @ins;
my $fprog = pack "S x![P] P", scalar(@ins), $filter;
syscall($prctl, 22, 2, $fprog, 0, 0) == 0 or fail("seccomp: $!");
# the filter holds: a Unix socket cannot be made unless granted (AF_UNIX 1, SOCK_STREAM 1)
if ($unix ne "1" && socket(my $probe, 1, 1, 0)) { fail("the seccomp filter did not refuse a Unix socket") }

delete $ENV{PERL_BADLANG};
print STDERR "$ready\n";
# This perl stays PID 1 of the jail's PID namespace and the command runs as its child: a command that
# is PID 1 believes it is the machine's init (systemd's tools then colour their output for a console)
# and ignores every signal it has no handler for (a timeout's TERM). It hands the usual stop signals
# on, reaps what the command leaves behind and exits as the command did (128 + signal when a signal
# ended it); when it exits, the kernel ends whatever is still running in the namespace.
my $child = fork;
defined $child or fail("fork: $!");
if ($child == 0) {
  exec { $cmd[0] } @cmd;
  print STDERR "oikos-jail: exec $cmd[0]: $!\n";
  exit 127;
}
$SIG{$_} = sub { kill $_[0], $child } for qw(TERM INT HUP QUIT USR1 USR2 ALRM);
for (;;) {
  my $pid = waitpid(-1, 0);
  if ($pid == $child) { my $status = $?; exit($status & 127 ? 128 + ($status & 127) : $status >> 8) }
  # EINTR (4): a signal was handed on; anything else: nothing left to wait for
  last if $pid == -1 && $! + 0 != 4;
}
exit 125;
