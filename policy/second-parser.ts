import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { keepWasmOnBaselineTier } from "../base/wasm-tier.ts";

/**
 * The second, independent bash parser: mvdan/sh (bash mode) compiled to WebAssembly (see
 * `second-parser/README.md`). Its tree is a flat list of records; offsets are JavaScript string
 * indices of the source, like tree-sitter's.
 */
export interface SecondTree {
  /**
   * Six int32 per node: type code, start, end, parent record (-1 at the top), extra, extra2. Only
   * the node types the agreement check reads are sent; a parent is the nearest sent ancestor.
   */
  records: number[];
  count: number;
}

export type SecondParse = { ok: true; tree: SecondTree } | { ok: false; error: string };

export interface SecondParser {
  parse(source: string): SecondParse;
  /** Node type name of a type code (`CallExpr`, `Redirect` …). */
  typeName(code: number): string;
  /** Operator text of a token code (`>`, `&&`, `<(` …). */
  token(code: number): string;
}

export const FIELDS = 6;
/** Trees larger than this are refused (a command is at most 16 KiB; this is far above any real one). */
const NODE_LIMIT = 20_000;

interface GoApi {
  inAddress: number;
  inSize: number;
  outAddress: number;
  errAddress: number;
  /** Four int32: pending flag, input length, node limit, result (see go/main.go). */
  callAddress: number;
  tokens: string[];
  types: string[];
}

/** The little of the WebAssembly global this needs (TypeScript's ES lib does not declare it). */
interface WasmInstance {
  exports: Record<string, unknown>;
}
interface WasmGlobal {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => WasmInstance;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmGlobal }).WebAssembly;

interface GoRuntime {
  importObject: object;
  run(instance: WasmInstance): Promise<void>;
  /** Enters the Go program once (wasm_exec's own entry for events); Go's handler reads `call`. */
  _resume(): void;
}

let loaded: SecondParser | undefined;

/** Loads the wasm once per process (synchronously, ~50 ms) and returns the shared parser. */
export function loadSecondParser(): SecondParser {
  loaded ??= createSecondParser();
  return loaded;
}

function createSecondParser(): SecondParser {
  keepWasmOnBaselineTier();
  const require = createRequire(import.meta.url);
  const globals = globalThis as Record<string, unknown>;
  // Go's wasm_exec.js installs `Go` (and an `fs` stub when there is none) on globalThis; Go keeps
  // its own references once started, so both are removed again afterwards.
  const hadFs = "fs" in globals;
  require("./second-parser/wasm_exec.cjs");
  const Go = globals.Go as new () => GoRuntime;
  const go = new Go();
  const module = new Wasm.Module(readFileSync(new URL("./second-parser/mvdan-sh.wasm", import.meta.url)));
  const instance = new Wasm.Instance(module, go.importObject);
  void go.run(instance);
  const api = globals.__oikosSecondParser as GoApi;
  delete globals.__oikosSecondParser;
  delete globals.Go;
  if (!hadFs) delete globals.fs;
  if (!api) throw new Error("the second bash parser did not start");
  const memory = instance.exports.mem as { buffer: ArrayBuffer };
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const types = [...api.types];
  const tokens = [...api.tokens];
  // Views over Go's memory, made again only when the memory grows (which detaches the buffer).
  let buffer: ArrayBuffer | undefined;
  let input = new Uint8Array(0);
  let call = new Int32Array(0);
  let output = new Int32Array(0);
  const views = (): void => {
    if (buffer === memory.buffer) return;
    buffer = memory.buffer;
    input = new Uint8Array(buffer, api.inAddress, api.inSize);
    call = new Int32Array(buffer, api.callAddress, 4);
    output = new Int32Array(buffer, api.outAddress, NODE_LIMIT * FIELDS);
  };
  return {
    typeName: (code) => types[code] ?? "Unknown",
    token: (code) => tokens[code] ?? "",
    parse(source: string): SecondParse {
      views();
      const { read, written } = encoder.encodeInto(source, input);
      if (read < source.length) return { ok: false, error: "the command is too long for the second parser" };
      call[1] = written;
      call[2] = NODE_LIMIT;
      call[3] = 0;
      call[0] = 1;
      go._resume();
      // The parse may have grown Go's memory: the old views are detached.
      views();
      if (call[0] !== 0) throw new Error("the second bash parser did not answer");
      const count = call[3] as number;
      if (count < 0) {
        return { ok: false, error: decoder.decode(new Uint8Array(memory.buffer, api.errAddress, -count)) };
      }
      // A plain copy: a typed array per parse costs an ArrayBuffer (and external-memory GC pressure).
      const records: number[] = new Array(count * FIELDS);
      for (let at = 0; at < records.length; at++) records[at] = output[at] as number;
      if (written !== source.length) toStringIndices(records, source);
      return { ok: true, tree: { records, count } };
    },
  };
}

/** Go reports UTF-8 byte offsets; outside ASCII they differ from JavaScript string indices. */
function toStringIndices(records: number[], source: string): void {
  const byteToIndex: number[] = [];
  let index = 0;
  for (const char of source) {
    const point = char.codePointAt(0) as number;
    const bytes = point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    for (let b = 0; b < bytes; b++) byteToIndex.push(index);
    index += char.length;
  }
  byteToIndex.push(index);
  for (let at = 0; at < records.length; at += FIELDS) {
    records[at + 1] = byteToIndex[records[at + 1] as number] ?? index;
    records[at + 2] = byteToIndex[records[at + 2] as number] ?? index;
  }
}
