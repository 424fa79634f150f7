import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDemoAccounts, setDemoPasswords } from '../../src/auth/demo-accounts';
import { authenticateWithPassword } from '../../src/auth/users';
import { users } from '../../src/db/schema/catalogue';
import { createTestDatabase, type TestDatabase } from '../db/test-database';

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  // The rows the demo generator writes for its three accounts: no passwords yet.
  await testDatabase.database.db.insert(users).values([
    { login: 'admin', name: 'Administrator', isAdmin: true },
    { login: 'developer', name: 'Demo Developer' },
    { login: 'visitor', name: 'Demo Visitor' },
  ]);
}, 60_000);

afterAll(async () => {
  await testDatabase.dispose();
});

describe('demo passwords', () => {
  it('give each demo account a fresh password it can sign in with', async () => {
    const db = testDatabase.database.db;
    const accounts = await setDemoPasswords(db);
    expect(accounts.map((account) => [account.login, account.role])).toEqual([
      ['admin', 'administrator'],
      ['developer', 'developer'],
      ['visitor', 'visitor'],
    ]);
    for (const account of accounts) {
      expect(account.password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
      expect(await authenticateWithPassword(db, account.login, account.password)).toMatchObject({
        login: account.login,
      });
    }
    const again = await setDemoPasswords(db);
    expect(again[0]?.password).not.toBe(accounts[0]?.password);
    expect(await authenticateWithPassword(db, 'admin', accounts[0]?.password ?? '')).toBeUndefined();
  });

  it('are printed as a short table', () => {
    expect(
      describeDemoAccounts(
        [
          { login: 'admin', password: 'aaaa-bbbb-cccc', role: 'administrator' },
          { login: 'visitor', password: 'dddd-eeee-ffff', role: 'visitor' },
        ],
        'http://localhost:8080',
      ),
    ).toBe(
      'Demo accounts (sign in at http://localhost:8080):\n' +
        '  admin   / aaaa-bbbb-cccc  (administrator)\n' +
        '  visitor / dddd-eeee-ffff  (visitor)',
    );
  });
});
