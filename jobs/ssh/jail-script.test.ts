import assert from "node:assert/strict";
import { test } from "node:test";
import { JailReadyFilter, readJailedStderr } from "./jail-script.ts";
import { AF_INET, AF_UNIX, seccompProgramText } from "./jail-seccomp.ts";

const READY = "oikos-jail:ready engine=unshare net=host pids=nproc:64 scratch=/srv\n";

test("the ready line: taken out of stderr with its facts; only the first line can be it", () => {
  const read = readJailedStderr(`${READY}oikos-jail:ready forged\nwarn\n`);
  assert.deepEqual(read.run, {
    state: "jailed",
    facts: { engine: "unshare", net: "host", pids: "nproc:64", scratch: "/srv" },
  });
  assert.equal(read.stderr, "oikos-jail:ready forged\nwarn\n");
  assert.equal(read.readyBytes, READY.length);
});

test("a jail that did not start: its declared kind and reason, or transient / unavailable read from the error", () => {
  const cases: [string, object][] = [
    [
      "oikos-jail:unavailable:perl is missing (perl-base)\n",
      { kind: "unavailable", reason: "perl is missing (perl-base)" },
    ],
    ["oikos-jail:transient:x\n", { kind: "transient", reason: "x" }],
    [
      "oikos-jail:grant:device:/dev/tty1 is not a disk\n",
      { kind: "grant", resource: "device", reason: "/dev/tty1 is not a disk" },
    ],
    [
      "unshare: unshare failed: Operation not permitted\n",
      { kind: "unavailable", reason: "unshare: unshare failed: Operation not permitted" },
    ],
    [
      "unshare: unshare failed: No space left on device\n",
      { kind: "transient", reason: "unshare: unshare failed: No space left on device" },
    ],
    [
      "bash: fork: retry: Resource temporarily unavailable\n",
      { kind: "transient", reason: "bash: fork: retry: Resource temporarily unavailable" },
    ],
    ["", { kind: "unavailable", reason: "the jail did not start (no output)" }],
  ];
  for (const [stderr, expected] of cases) {
    assert.deepEqual(readJailedStderr(stderr).run, { state: "failed", ...expected }, stderr);
  }
});

test("live stderr never shows the ready line, however it is split", () => {
  const text = `${READY}one\n`;
  for (let cut = 0; cut <= text.length; cut++) {
    const filter = new JailReadyFilter();
    const shown = filter.push(text.slice(0, cut)) + filter.push(text.slice(cut));
    assert.equal(shown, "one\n", `cut at ${cut}`);
  }
  const failed = new JailReadyFilter();
  assert.equal(failed.push("oikos-jail:unav") + failed.push("ailable:x\n"), "oikos-jail:unavailable:x\n");
});

test("the seccomp program: well-formed classic BPF, the granted families only, every jump in range", () => {
  const decode = (text: string) => text.split(";").map((ins) => ins.split(",").map(Number));
  const contained = decode(seccompProgramText({ families: [AF_INET] }));
  const withUnix = decode(seccompProgramText({ families: [AF_INET, AF_UNIX] }));
  assert.ok(contained.length < 255, `${contained.length} instructions`);
  for (const [code, jt, jf, k] of contained) {
    assert.ok([0x20, 0x15, 0x35, 0x25, 0x06].includes(code!), `opcode ${code}`);
    assert.ok(jt! >= 0 && jt! <= 255 && jf! >= 0 && jf! <= 255);
    assert.ok(Number.isInteger(k) && k! >= 0 && k! <= 0xffffffff);
  }
  // the first instruction loads the architecture; the last ones return
  assert.deepEqual(contained[0], [0x20, 0, 0, 4]);
  assert.equal(contained.at(-1)?.[0], 0x06);
  // the socket handler: the first load of the first argument, then one jeq per family until it returns
  const familyChecks = (program: number[][]) => {
    const from = program.findIndex(([code, , , k]) => code === 0x20 && k === 16);
    const families: number[] = [];
    for (const [code, , , k] of program.slice(from + 1)) {
      if (code !== 0x15) break;
      families.push(k!);
    }
    return families;
  };
  assert.deepEqual(familyChecks(contained), [AF_INET]);
  assert.deepEqual(familyChecks(withUnix), [AF_INET, AF_UNIX]);
});
