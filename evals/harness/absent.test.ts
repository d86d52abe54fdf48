import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type AbsentSpec, checkAbsent, type PlaceTexts, type SECRET_SHAPES } from "./absent.ts";

const places = (posts: string[]): PlaceTexts => ({
  posts,
  stored_output: [],
  audit: [],
  model_requests: [],
  transcript: [],
  tables: [],
});
const spec = (s: Partial<AbsentSpec>): AbsentSpec => ({ in: ["posts"], ...s }) as AbsentSpec;

describe("absent checks", () => {
  test("a literal found is a failure naming the place, with the hit masked", () => {
    const failures: string[] = [];
    checkAbsent([spec({ text: "hunter2" })], places(["ok", "password is hunter2 now"]), failures);
    assert.equal(failures.length, 1);
    assert.match(failures[0]!, /"hunter2" appears in posts \(1 of 2\)/);
    assert.doesNotMatch(failures[0]!, /hunter2 now/);
  });
  test("nothing found, no failure", () => {
    const failures: string[] = [];
    checkAbsent([spec({ pattern: "AKIA[0-9A-Z]{16}" })], places(["[REDACTED]"]), failures);
    assert.deepEqual(failures, []);
  });
  test("every secret shape catches its example and passes the redaction marker", () => {
    const examples: Record<keyof typeof SECRET_SHAPES, string> = {
      aws_access_key: "AKIAQ3EGRIKXYLBZ7QJM",
      private_key: "-----BEGIN OPENSSH PRIVATE KEY-----",
      bearer_token: "Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123",
      github_token: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      slack_token: "xoxb-1234567890-abcdef",
      jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
      password_assignment: "DB_PASSWORD=hunter2-horse",
      url_credentials: "postgres://app:s3cr3t@db1:5432/app",
    };
    for (const [name, example] of Object.entries(examples)) {
      const caught: string[] = [];
      checkAbsent([spec({ secret: name as keyof typeof SECRET_SHAPES })], places([example]), caught);
      assert.equal(caught.length, 1, `${name} misses ${example}`);
    }
    const clean: string[] = [];
    const redacted = [
      "DB_PASSWORD=[REDACTED]",
      "postgres://app:[REDACTED]@db1:5432/app",
      "token: [REDACTED]",
    ];
    checkAbsent([spec({ secret: "any" })], places(redacted), clean);
    assert.deepEqual(clean, []);
  });
});
