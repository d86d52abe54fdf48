import assert from "node:assert/strict";
import { test } from "node:test";
import { isAddressLiteral } from "./no-name-lookups.ts";

test("address literals: IPv4 dotted quads and IPv6 in every RFC 4291 form, nothing a resolver is asked about", () => {
  for (const text of [
    "0.0.0.0",
    "192.0.2.1",
    "255.255.255.255",
    "::",
    "::1",
    "2001:db8::1",
    "2001:0db8:0000:0000:0000:0000:0000:0001",
    "fe80::1:2:3:4:5:6",
    "::ffff:192.0.2.1",
    "64:ff9b::192.0.2.33",
  ])
    assert.equal(isAddressLiteral(text), true, text);
  for (const text of [
    "",
    "localhost",
    "evil.example",
    "cafe.de",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "1.2.3.04x",
    "dead:beef",
    "1::2::3",
    "2001:db8:0:0:0:0:0:0:1",
    "2001:db8::g",
    "::ffff:999.0.2.1",
    "12345::1",
    "*",
  ])
    assert.equal(isAddressLiteral(text), false, text);
});
