#!/usr/bin/env node
// The CLI is TypeScript run by Node's built-in type stripping (Node >= 22.18).
const { main } = await import("../app/cli.ts");
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
