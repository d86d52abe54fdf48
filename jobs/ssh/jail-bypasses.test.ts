import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createScratchTree, type ScratchTree } from "../../test-support/jail/scratch-tree.ts";
import { ensureLabUser } from "../../test-support/sshd/lab-prerequisites.ts";
import { labAuth, labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { type SshLab, sshLabUnavailable, startSshLab } from "../../test-support/sshd/ssh-lab.ts";
import { InMemoryHostKeyStore } from "./host-key-store.ts";
import { SshPool } from "./ssh-pool.ts";
import type { Target } from "./target.ts";
import { TransportRouter } from "./transport-router.ts";

/**
 * Classifier bypasses of the kinds issue 16 names (what is parsed is not what runs; builtins that
 * evaluate code; environment that runs programs; writing flags and mini-languages of "read-only"
 * tools; truncation), written here against a scratch tree, never the real system, and forced
 * through the read-only path whatever the classifier says: run in the jail, the tree must stay as
 * it was. Each is first run unjailed on a tree of its own, which it must change: a bypass that
 * does nothing proves nothing.
 */
const unavailable = await sshLabUnavailable();

const BYPASSES: readonly string[] = [
  // what is parsed is not what runs
  "echo hi # \\\ntouch $S/etc/after-comment",
  "$(printf 'r%s' m) -f $S/etc/hosts",
  "c=tou; ${c}ch $S/etc/built-name",
  // builtins that change the shell or evaluate code
  "hash -p /bin/rm ls; ls -f $S/etc/hosts",
  "declare -i x='a[$(touch $S/etc/declare)]'",
  "printf -v 'a[$(touch $S/etc/printf-v)]' x",
  "[[ 1 -eq 'a[$(touch $S/etc/test-eq)]' ]]",
  "let 'a[$(touch $S/etc/let)]=1'",
  "PS4='$(touch $S/etc/ps4)'; set -x; true",
  "x='$(touch $S/etc/prompt)'; echo ${x@P}",
  "set -o history; history -s evil; history -w $S/home/.bash_history",
  "PATH=$S/nowhere:$PATH; enable -n echo; eval 'echo evil > $S/etc/app.conf'",
  // environment that runs programs
  "env -S 'touch $S/etc/env-S'",
  "BASH_ENV=/dev/stdin bash -c true <<< 'touch $S/etc/bash-env'",
  // flags and mini-languages of read-only tools
  "shuf -o $S/etc/app.conf $S/etc/app.conf",
  "sort --compress-program=sh -S 1 -T $S/etc -o /dev/null $S/home/notes.txt; touch $S/etc/sort",
  "awk 'BEGIN { system(\"touch $S/etc/awk-system\") }'",
  'awk \'BEGIN { print "x" > "$S/etc/awk-print" }\'',
  "awk 'BEGIN { \"touch $S/etc/awk-getline\" | getline }'",
  "sed -n 'w $S/etc/sed-w' $S/etc/hosts",
  "sed 's|.*|touch $S/etc/sed-e|e' $S/etc/hosts",
  "find $S/etc -name hosts -delete",
  "find $S/etc -name app.conf -fprint $S/etc/find-fprint",
  "find $S/etc -name app.conf -exec sh -c 'echo evil > {}' \\;",
  "xargs -a $S/etc/hosts -I{} touch $S/etc/xargs",
  "tar -cf $S/etc/archive.tar -C $S home",
  "split -b 4 $S/etc/hosts $S/etc/part-",
  "script -q -c true $S/etc/typescript",
  "exec 3<>$S/etc/app.conf; echo X >&3",
  // heredocs and truncation
  "cat <<'EOF' > $S/etc/exports\n/srv *(rw)\nEOF",
  "cat /dev/null > $S/etc/hosts",
  "tee -a $S/var/log/app.log < /dev/null > /dev/null; touch -d 2000-01-01 $S/var/log/app.log",
  "mkfifo $S/etc/fifo; install -m 644 /dev/null $S/etc/installed",
];

function expand(command: string, scratch: string): string {
  return command.replaceAll("$S", scratch);
}

describe("classifier bypasses forced through the read-only path leave the scratch tree unchanged", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let lab: SshLab;
  let pool: SshPool;
  let router: TransportRouter;
  let target: Target;
  let tree: ScratchTree;
  let initial: string[];

  before(async () => {
    lab = await startSshLab({ hosts: [{ name: "bypass" }] });
    pool = new SshPool({ auth: labAuth(lab.host("bypass")), hostKeys: new InMemoryHostKeyStore() });
    router = new TransportRouter({ pool });
    target = labSshTarget(lab.host("bypass"));
    tree = await createScratchTree(await ensureLabUser());
    initial = await tree.snapshot();
  });
  after(async () => {
    await pool?.close();
    await lab?.stop();
    await tree?.remove();
  });

  for (const bypass of BYPASSES) {
    test(bypass, async () => {
      const control = await createScratchTree(await ensureLabUser());
      try {
        const before = await control.snapshot();
        await router.exec(target, expand(bypass, control.root));
        assert.notDeepEqual(
          await control.snapshot(),
          before,
          "control: unjailed, this bypass changes the tree",
        );
      } finally {
        await control.remove();
      }
      const jailed = await router.exec(target, expand(bypass, tree.root), { jail: true });
      assert.equal(jailed.jail?.state, "jailed", jailed.stderr);
      assert.deepEqual(await tree.snapshot(), initial, `changed the tree: ${jailed.stderr}`);
    });
  }
});
