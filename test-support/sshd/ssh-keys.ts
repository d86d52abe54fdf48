import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export interface GeneratedKey {
  privateKeyPath: string;
  privateKey: string;
  publicKey: string;
  /** `SHA256:<base64 without padding>`, as `ssh-keygen -l` prints it. */
  fingerprint: string;
}

/** A fresh ed25519 key pair without passphrase, written to `path` and `path.pub`. */
export async function generateEd25519Key(path: string, comment: string): Promise<GeneratedKey> {
  await execFileAsync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path]);
  const [privateKey, publicKey] = await Promise.all([
    readFile(path, "utf8"),
    readFile(`${path}.pub`, "utf8"),
  ]);
  return {
    privateKeyPath: path,
    privateKey,
    publicKey: publicKey.trim(),
    fingerprint: publicKeyFingerprint(publicKey),
  };
}

/** SHA256 fingerprint of one OpenSSH public key line (`ssh-ed25519 AAAA… comment`). */
export function publicKeyFingerprint(publicKeyLine: string): string {
  const blob = publicKeyLine.trim().split(/\s+/)[1];
  if (blob === undefined) throw new Error("not an OpenSSH public key line");
  const digest = createHash("sha256").update(Buffer.from(blob, "base64")).digest("base64");
  return `SHA256:${digest.replace(/=+$/, "")}`;
}
