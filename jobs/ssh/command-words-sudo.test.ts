import assert from "node:assert/strict";
import { test } from "node:test";
import { BASH_C, commandWords, JAIL_BASH_C, SUDO_WORDS } from "./command-words.ts";
import { JAIL_ARGV0, JAIL_SCRIPT } from "./jail-script.ts";

test("sudo: true runs the same words through `sudo -n --`, inside timeout(1), the jail under sudo", () => {
  assert.deepEqual(SUDO_WORDS, ["sudo", "-n", "--"]);
  assert.deepEqual(commandWords("id -u", { sudo: true }), [...SUDO_WORDS, ...BASH_C, "id -u"]);
  // the jail's own settings (network, bounds, filter) follow the command: the same under sudo
  const jailed = commandWords("id -u", { sudo: true, jail: true });
  const unsudoed = commandWords("id -u", { jail: true });
  assert.deepEqual(jailed.slice(0, SUDO_WORDS.length + JAIL_BASH_C.length + 3), [
    ...SUDO_WORDS,
    ...JAIL_BASH_C,
    JAIL_SCRIPT,
    JAIL_ARGV0,
    "id -u",
  ]);
  assert.deepEqual(jailed, [...SUDO_WORDS, ...unsudoed]);
  const timed = commandWords("id -u", { sudo: true, jail: true, timeoutSeconds: 10 });
  assert.deepEqual(timed.slice(0, 6), ["timeout", "-s", "TERM", "-k", "5", "10"]);
  assert.deepEqual(timed.slice(6, 9), [...SUDO_WORDS]);
  assert.deepEqual(commandWords("id -u"), [...BASH_C, "id -u"], "no sudo unless asked");
});
