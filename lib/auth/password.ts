import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

// Passwords are low-entropy secrets, so they get a slow, memory-hard KDF: node's scrypt. The
// stored string carries its own parameters and salt ("scrypt$N$r$p$salt$hash"), so the cost can
// be raised later without invalidating existing hashes (needsRehash tells when to upgrade).
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const;
const SALT_BYTES = 16;
// scrypt needs 128·N·r bytes; node's default ceiling (32 MiB) is exactly that for N=2^15, r=8.
const maxmemFor = (N: number, r: number) => 256 * N * r;

function scrypt(password: string, salt: Buffer, keyLength: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize("NFKC"), salt, keyLength, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string, params: { N: number; r: number; p: number } = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, SCRYPT_PARAMS.keyLength, { ...params, maxmem: maxmemFor(params.N, params.r) });
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  // Refuse absurd parameters from a tampered row rather than burn the server's memory.
  if (![N, r, p].every(Number.isSafeInteger) || N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16)
    return null;
  const salt = Buffer.from(parts[4], "base64url");
  const key = Buffer.from(parts[5], "base64url");
  if (salt.length < 8 || key.length < 16) return null;
  return { N, r, p, salt, key };
}

/** Checks a password against a stored scrypt string in constant time; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const h = stored ? parse(stored) : null;
  if (!h) {
    // Spend the same work as a real check so timing does not tell which emails exist.
    await scrypt(password, randomBytes(SALT_BYTES), SCRYPT_PARAMS.keyLength, {
      ...SCRYPT_PARAMS,
      maxmem: maxmemFor(SCRYPT_PARAMS.N, SCRYPT_PARAMS.r),
    });
    return false;
  }
  const key = await scrypt(password, h.salt, h.key.length, { N: h.N, r: h.r, p: h.p, maxmem: maxmemFor(h.N, h.r) });
  return timingSafeEqual(key, h.key);
}

/** True when a stored hash uses weaker parameters than the current ones. */
export function needsRehash(stored: string): boolean {
  const h = parse(stored);
  return !h || h.N < SCRYPT_PARAMS.N || h.r < SCRYPT_PARAMS.r || h.p < SCRYPT_PARAMS.p;
}
