"use strict";
// oikos does not support end-to-end encryption: the real native module downloads a binary at
// install time. Anything that reaches for it gets a clear error instead of a half-working bot.
const message =
  "oikos: Matrix end-to-end encryption is not supported. Use an invite-only, unencrypted ops room " +
  "and do not configure a crypto store for the Matrix client.";
function unsupported() {
  throw new Error(message);
}
module.exports = new Proxy(
  {},
  {
    get(_target, prop) {
      if (prop === "__esModule") return false;
      if (prop === "then") return undefined;
      return unsupported;
    },
  },
);
