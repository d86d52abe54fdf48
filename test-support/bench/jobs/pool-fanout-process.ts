/**
 * The pool fan-out of a bench in a process of its own, so its memory is measured alone:
 * `node test-support/bench/jobs/pool-fanout-process.ts <input.json>` with `{ hosts: LabHost[], cold, warm }`;
 * prints one JSON line: the runs, RSS after start-up and the peak RSS of the whole process (MB).
 */
import { readFile } from "node:fs/promises";
import type { LabHost } from "../../sshd/ssh-lab.ts";
import { measurePoolFanOut, type PoolFanOutRuns } from "./pool-fanout.ts";

export interface PoolFanOutReport extends PoolFanOutRuns {
  rssStartMb: number;
  rssPeakMb: number;
}

const inputPath = process.argv[2];
if (inputPath === undefined) throw new Error("usage: pool-fanout-process.ts <input.json>");
const input = JSON.parse(await readFile(inputPath, "utf8")) as {
  hosts: LabHost[];
  cold: number;
  warm: number;
};
const mb = (bytes: number) => bytes / (1024 * 1024);
const rssStartMb = mb(process.memoryUsage().rss);
const runs = await measurePoolFanOut(input.hosts, { cold: input.cold, warm: input.warm });
// maxRSS is in kilobytes: the high-water mark of this process, fan-outs included
const report: PoolFanOutReport = { ...runs, rssStartMb, rssPeakMb: process.resourceUsage().maxRSS / 1024 };
process.stdout.write(`${JSON.stringify(report)}\n`);
