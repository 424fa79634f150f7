import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * Passwords are hashed with argon2id (the library's default algorithm) at the OWASP baseline cost:
 * 19 MiB of memory, 2 passes, 1 lane. The parameters are stored inside each hash, so raising them later
 * keeps old hashes verifiable.
 */
const HASH_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

/** Why a password cannot be used, in words for the person choosing it, or undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`;
  }
  return undefined;
}

export async function hashPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS);
}

/**
 * A hash of a password nobody knows. Checking a login that does not exist against it costs the same time as
 * a real check, so response times do not tell which logins exist.
 */
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH) return false;
  if (!passwordHash) {
    decoyHash ??= hashPassword(randomBytes(24).toString('base64url'));
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
