#!/usr/bin/env node
// The CLI is TypeScript run by Node's built-in type stripping (Node >= 22.18).
await import("../app/cli.ts");
