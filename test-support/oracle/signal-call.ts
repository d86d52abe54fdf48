/**
 * Who a traced signal call targets and with which signal, from strace's argument text:
 * `kill(pid, sig)`, `tkill(tid, sig)`, `rt_sigqueueinfo(pid, sig, …)`, and the thread-group forms
 * `tgkill(tgid, tid, sig)` / `rt_tgsigqueueinfo(tgid, tid, sig, …)`. `target` is NaN when strace
 * printed something that is not a number; `pidfd_send_signal` names no pid (undefined).
 */
export interface SignalCall {
  target: number | undefined;
  targetText: string;
  signal: string | undefined;
}

export function parseSignalCall(syscall: string, args: string): SignalCall {
  const parts = args.split(",").map((part) => part.trim());
  if (syscall === "pidfd_send_signal") return { target: undefined, targetText: "a pidfd", signal: parts[1] };
  const threadGroup = syscall === "tgkill" || syscall === "rt_tgsigqueueinfo";
  const targetText = (threadGroup ? parts[1] : parts[0]) ?? "";
  return { target: Number(targetText), targetText, signal: threadGroup ? parts[2] : parts[1] };
}
