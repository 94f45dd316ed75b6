/**
 * Native user passwords: scrypt (salted, memory-hard, slow) kept in the corpUserCredentials
 * aspect as {salt, hashedPassword}; the hash records its parameters so they can be raised later.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface PasswordCredentials {
  readonly salt: string;
  readonly hashedPassword: string;
}

const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 128 * 1024 * 1024;
export const MIN_PASSWORD_LENGTH = 8;

function derive(password: string, salt: string, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<PasswordCredentials> {
  const salt = randomBytes(16).toString('base64');
  const key = await derive(password, salt, PARAMS);
  return { salt, hashedPassword: `scrypt$N=${PARAMS.N},r=${PARAMS.r},p=${PARAMS.p}$${key.toString('base64')}` };
}

function parseHash(hashed: string): { params: { N: number; r: number; p: number }; key: Buffer } | undefined {
  const m = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)$/.exec(hashed);
  if (!m) return undefined;
  return { params: { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) }, key: Buffer.from(m[4], 'base64') };
}

export async function verifyPassword(password: string, stored: PasswordCredentials): Promise<boolean> {
  const parsed = parseHash(stored.hashedPassword);
  if (!parsed) return false;
  const key = await derive(password, stored.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

let dummy: Promise<PasswordCredentials> | undefined;

/** Spends the time of a real check, so a login for an unknown user answers as slowly as for a known one. */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
  return false;
}
