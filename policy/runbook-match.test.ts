import assert from "node:assert/strict";
import { test } from "node:test";
import { sharedSymptom, symptomMatches, symptomWords } from "./runbook-match.ts";

test("symptom words: lower-case, numbers kept, stop words and type prefixes out, each once", () => {
  assert.deepEqual(symptomWords("Nextcloud on lxc:nextcloud returns HTTP 502, nextcloud is down"), [
    "nextcloud",
    "returns",
    "http",
    "502",
    "down",
  ]);
  assert.deepEqual(symptomWords(""), []);
});

test("the symptom tasks share: words in at least two of their goals, most shared first", () => {
  assert.deepEqual(
    sharedSymptom([
      "Nextcloud on lxc:nextcloud answers 502 Bad Gateway",
      "Fix the 502 from nextcloud (lxc:nextcloud)",
      "nextcloud slow; 502 on login",
    ]),
    ["nextcloud", "502"],
  );
  assert.deepEqual(sharedSymptom(["disk full on nas"]), ["disk", "full", "nas"], "one text: all of it");
  assert.deepEqual(sharedSymptom(["gitea down", "jellyfin transcoding slow"]), []);
});

test("a task's text matches a symptom when it says at least half of it, and two words of a longer one", () => {
  const symptom = ["nextcloud", "502", "gateway"];
  assert.equal(symptomMatches(symptom, "lxc:nextcloud gives 502 again"), true);
  assert.equal(symptomMatches(symptom, "Nextcloud upgrade to 30"), false, "one word of three");
  assert.equal(symptomMatches(symptom, "gitea 502 gateway"), true, "two of three");
  assert.equal(symptomMatches(["nextcloud"], "nextcloud is slow"), true);
  assert.equal(symptomMatches(["nextcloud", "502"], "nextcloud is slow"), false);
  assert.equal(symptomMatches([], "anything"), false);
});
