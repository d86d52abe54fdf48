# Escape attempt for the read-only jail tests: from inside the jail, make a new user namespace (full
# capabilities there) and a new mount namespace, then try to make the scratch tree writable again:
# remount it rw, bind it elsewhere and remount the bind rw, cover it with a tmpfs, unmount it.
# Prints one line per attempt; then writes through every path it tried. Run as: python3 this.py <scratch root>
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
root = sys.argv[1]
CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
MS_REMOUNT, MS_BIND, MS_REC = 32, 4096, 16384
MNT_DETACH = 2


def attempt(name, result):
    print(name, "ok" if result == 0 else os.strerror(ctypes.get_errno()))


def mount(source, target, fstype, flags):
    enc = lambda s: None if s is None else s.encode()
    return libc.mount(enc(source), enc(target), enc(fstype), flags, None)


attempt("unshare", libc.unshare(CLONE_NEWUSER | CLONE_NEWNS))
attempt("remount-rw", mount(None, root, None, MS_REMOUNT | MS_BIND))
attempt("remount-root-rw", mount(None, "/", None, MS_REMOUNT | MS_BIND))
attempt("bind", mount(root + "/etc", root + "/home", None, MS_BIND | MS_REC))
attempt("remount-bind-rw", mount(None, root + "/home", None, MS_REMOUNT | MS_BIND))
attempt("umount", libc.umount2(root.encode(), MNT_DETACH))
for path in (root + "/home/app.conf", root + "/etc/app.conf", root + "/var/log/app.log"):
    try:
        with open(path, "a") as f:
            f.write("escaped\n")
        print("WROTE", path)
    except OSError as error:
        print("write", path, error.strerror)
