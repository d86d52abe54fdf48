import { type ExecutionView, jailLine, nextStepFor } from "../../jobs/execution/execution-view.ts";
import { frameOutput } from "../../jobs/execution/output-frame.ts";
import type { CompactExecution } from "./execution-outputs.ts";

/**
 * The fields a model needs; nulls and bookkeeping left out to save context. With `outputChars`,
 * each stream keeps at most that many characters (head and tail), so a fan-out over many targets
 * fits the model's budget; the stored output stays whole for get_execution_status.
 */
export function compactExecution(view: ExecutionView, outputChars?: number): CompactExecution {
  const stdout = clipped(view.stdout, outputChars);
  const stderr = clipped(view.stderr, outputChars);
  const out: CompactExecution = {
    execution_id: view.execution_id,
    status: view.status,
    exit_code: view.exit_code,
    stdout: frameOutput(view, "stdout", stdout.text),
  };
  if (stderr.text) out.stderr = frameOutput(view, "stderr", stderr.text);
  if (view.stdout_binary) out.stdout_binary = "yes: the output is binary, stdout holds a printable preview";
  if (view.stderr_binary) out.stderr_binary = "yes: binary, stderr holds a printable preview";
  if (view.output_truncated)
    out.output_truncated = `yes: ${view.output_bytes} bytes in all, head and tail kept`;
  else if (stdout.cut + stderr.cut > 0)
    out.output_truncated = `yes: ${stdout.cut + stderr.cut} characters cut here to fit every target; get_execution_status("${view.execution_id}") has it all`;
  if (view.duration_ms !== null) out.duration_ms = view.duration_ms;
  if (view.reason) out.reason = view.reason;
  const jail = jailLine(view);
  if (jail) out.jail = jail;
  if (!view.finished) out.next_step = nextStepFor(view);
  return out;
}

function clipped(text: string | null, chars: number | undefined): { text: string | null; cut: number } {
  if (text === null || chars === undefined || text.length <= chars) return { text, cut: 0 };
  const head = Math.ceil(chars / 2);
  const tail = chars - head;
  const cut = text.length - chars;
  return {
    text: `${text.slice(0, head)}\n… (${cut} characters cut) …\n${text.slice(text.length - tail)}`,
    cut,
  };
}
