import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from '../../src/auth/passwords';

describe('passwords', () => {
  it('are stored as argon2id hashes with the memory cost in the hash', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(stored).not.toContain('correct horse battery');
    expect(await hashPassword('correct horse battery')).not.toBe(stored);
  });

  it('verify only with the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse batterY')).toBe(false);
    expect(await verifyPassword(null, 'anything at all')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything at all')).toBe(false);
  });

  it('say what is wrong with a password that is too short or too long', () => {
    expect(passwordProblem('short')).toBe('The password must have at least 8 characters.');
    expect(passwordProblem('x'.repeat(201))).toBe('The password must have at most 200 characters.');
    expect(passwordProblem('long enough')).toBeUndefined();
  });
});
