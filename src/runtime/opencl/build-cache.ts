import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The persistent program cache: one file per program binary, named by the hash of everything that
 * decides the binary. A file holds a header — magic, the key it was written for, the payload's
 * length and its SHA-256 — then the payload, so a truncated, corrupted or foreign (renamed or
 * copied) file is recognised and never handed to the driver.
 */
const MAGIC = Buffer.from('KARGPB01', 'latin1');
const HEADER = MAGIC.length + 32 + 8 + 32;

/** What decides a program binary; every field goes into the key. */
export interface CacheKeyParts {
  readonly kernarg: string;
  readonly source: string;
  readonly options: string;
  /** Every header the build reads: its path in the build input's include tree, and its text. */
  readonly includes: readonly (readonly [string, string | null])[];
  readonly platform: string;
  readonly platformVersion: string;
  readonly device: string;
  readonly deviceVersion: string;
  readonly driverVersion: string;
}

export function cacheKey(parts: CacheKeyParts): Buffer {
  return createHash('sha256').update(JSON.stringify(parts)).digest();
}

/**
 * The cache folder: `false` or KERNARG_CACHE=0/off turns the cache off; a string names the folder;
 * else KERNARG_CACHE_DIR, else $XDG_CACHE_HOME/kernarg, else ~/.cache/kernarg.
 */
export function cacheDir(option: boolean | string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  if (option === false) return null;
  if (typeof option === 'string') return option;
  if (/^(0|off|false|no)$/i.test(env.KERNARG_CACHE ?? '')) return null;
  if (env.KERNARG_CACHE_DIR) return env.KERNARG_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kernarg');
}

export function entryPath(dir: string, key: Buffer): string {
  return join(dir, `${key.toString('hex')}.bin`);
}

export type CacheRead =
  | { readonly kind: 'hit'; readonly payload: Buffer }
  | { readonly kind: 'missing' }
  | { readonly kind: 'bad'; readonly why: string };

/** Reads and checks one entry; a damaged one is reported, not returned. */
export function readEntry(dir: string, key: Buffer): CacheRead {
  let file: Buffer;
  try {
    file = readFileSync(entryPath(dir, key));
  } catch {
    return { kind: 'missing' };
  }
  if (file.length < HEADER || !file.subarray(0, MAGIC.length).equals(MAGIC))
    return { kind: 'bad', why: 'not a kernarg cache entry' };
  if (!file.subarray(8, 40).equals(key)) return { kind: 'bad', why: 'written for another program' };
  const length = file.readBigUInt64LE(40);
  const payload = file.subarray(HEADER);
  if (BigInt(payload.length) !== length)
    return { kind: 'bad', why: `truncated (${payload.length} of ${length} bytes)` };
  if (!createHash('sha256').update(payload).digest().equals(file.subarray(48, 80)))
    return { kind: 'bad', why: 'checksum mismatch' };
  return { kind: 'hit', payload };
}

/**
 * Writes an entry atomically: a temporary file in the same folder, then a rename, so a reader
 * (another process building the same program) sees the old file, no file, or the whole new one.
 * A cache that cannot be written is not an error: the build has already succeeded.
 */
export function writeEntry(dir: string, key: Buffer, payload: Buffer): boolean {
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  key.copy(header, 8);
  header.writeBigUInt64LE(BigInt(payload.length), 40);
  createHash('sha256').update(payload).digest().copy(header, 48);
  const final = entryPath(dir, key);
  const tmp = `${final}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, Buffer.concat([header, payload]));
    renameSync(tmp, final);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}
