import type { InjectOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Consent } from '@marketplace/api-contract';
import { InsightRecorder } from '../../src/insight';
import { selectRows } from '../../src/search/sql';
import { VERSIONS } from '../api/catalogue-fixture';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../db/test-database';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const IDE_BUILD = 'IU-242.20224.300';

describe.each(DATABASE_KINDS)('/api/consent on %s (CONSENT_REQUIRED=browsers)', (kind) => {
  let t: ReviewsTestApp;
  let user: number;

  const call = (userId: number | undefined, request: InjectOptions) => t.call(userId, request);
  const json = async <T>(userId: number | undefined, request: InjectOptions, status = 200) => {
    const response = await call(userId, request);
    expect(response.statusCode, response.body).toBe(status);
    return { body: response.json() as T, cookie: response.headers['set-cookie'] as string | undefined };
  };

  beforeAll(async () => {
    t = await createReviewsTestApp({ kind, env: { CONSENT_REQUIRED: 'browsers' } });
    user = await t.addUser('consent-user');
  });
  afterAll(async () => t?.close());

  it('a guest has no choice at first; the choice is kept in a cookie and read back from it', async () => {
    const first = await json<Consent>(undefined, { method: 'GET', url: '/api/consent' });
    expect(first.body).toEqual({
      analytics: null,
      decidedAt: null,
      storedFor: 'browser',
      required: 'browsers',
    });
    expect(first.cookie).toBeUndefined();
    const put = await json<Consent>(undefined, {
      method: 'PUT',
      url: '/api/consent',
      payload: { analytics: true },
    });
    expect(put.body).toMatchObject({ analytics: true, storedFor: 'browser' });
    expect(put.cookie).toMatch(/^mp_consent=granted; Path=\/; Max-Age=\d+; SameSite=Lax; Secure$/);
    const again = await json<Consent>(undefined, {
      method: 'GET',
      url: '/api/consent',
      headers: { cookie: 'other=1; mp_consent=granted' },
    });
    expect(again.body).toMatchObject({ analytics: true, storedFor: 'browser' });
    const declined = await json<Consent>(undefined, {
      method: 'GET',
      url: '/api/consent',
      headers: { cookie: 'mp_consent=denied' },
    });
    expect(declined.body.analytics).toBe(false);
    expect(
      await call(undefined, { method: 'PUT', url: '/api/consent', payload: { analytics: 'perhaps' } }),
    ).toMatchObject({
      statusCode: 400,
    });
    expect((await call(undefined, { method: 'GET', url: '/api/consent' })).headers['cache-control']).toBe(
      'no-store',
    );
  });

  it('a signed-in user’s choice is kept for the user, follows them to another browser, and can change', async () => {
    const put = await json<Consent>(user, {
      method: 'PUT',
      url: '/api/consent',
      payload: { analytics: false },
    });
    expect(put.body).toMatchObject({ analytics: false, storedFor: 'user' });
    expect(put.cookie).toMatch(/^mp_consent=denied;/);
    const [row] = await selectRows<{ analytics: boolean }>(
      t.db,
      sql`SELECT analytics FROM user_consents WHERE user_id = ${user}`,
    );
    expect(row?.analytics).toBe(false);
    // Another browser (no cookie, or a guest's other choice): the user's choice wins and is copied to it.
    const elsewhere = await json<Consent>(user, {
      method: 'GET',
      url: '/api/consent',
      headers: { cookie: 'mp_consent=granted' },
    });
    expect(elsewhere.body).toMatchObject({ analytics: false, storedFor: 'user' });
    expect(elsewhere.body.decidedAt).toBeGreaterThan(0);
    expect(elsewhere.cookie).toMatch(/^mp_consent=denied;/);
    const same = await json<Consent>(user, {
      method: 'GET',
      url: '/api/consent',
      headers: { cookie: 'mp_consent=denied' },
    });
    expect(same.cookie).toBeUndefined();
    await json(user, { method: 'PUT', url: '/api/consent', payload: { analytics: true } });
    expect((await json<Consent>(user, { method: 'GET', url: '/api/consent' })).body.analytics).toBe(true);
  });

  it('the banner’s form records the choice as the API does and goes back to the page; forged or odd posts are refused', async () => {
    const ORIGIN = 'https://plugins.example.com';
    const post = (
      fields: Record<string, string>,
      headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', origin: ORIGIN },
      userId?: number,
    ) =>
      call(userId, {
        method: 'POST',
        url: '/consent',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams(fields).toString(),
      });

    const accepted = await post({ choice: 'granted', returnTo: '/search?search=git&kind=themes' });
    expect(accepted.statusCode, accepted.body).toBe(303);
    expect(accepted.headers.location).toBe('/search?search=git&kind=themes');
    expect(accepted.headers['set-cookie']).toMatch(
      /^mp_consent=granted; Path=\/; Max-Age=15552000; SameSite=Lax; Secure$/,
    );
    // An older browser says where it comes from in Origin only.
    const declined = await post({ choice: 'denied', returnTo: '/' }, { origin: ORIGIN });
    expect(declined.statusCode, declined.body).toBe(303);
    expect(declined.headers.location).toBe('/');
    expect(declined.headers['set-cookie']).toMatch(/^mp_consent=denied;/);

    // The same record as PUT: for a signed-in user, kept for the user too.
    const formUser = await t.addUser('consent-form-user');
    expect((await post({ choice: 'denied', returnTo: '/plugin/1' }, undefined, formUser)).statusCode).toBe(
      303,
    );
    const [row] = await selectRows<{ analytics: boolean }>(
      t.db,
      sql`SELECT analytics FROM user_consents WHERE user_id = ${formUser}`,
    );
    expect(row?.analytics).toBe(false);

    const refused = async (
      fields: Record<string, string>,
      status: number,
      message: string,
      headers?: Record<string, string>,
    ) => {
      const response = await post(fields, headers);
      expect(response.statusCode, `${JSON.stringify(fields)} ${JSON.stringify(headers)}`).toBe(status);
      expect(response.json()).toEqual({ type: 'error', message });
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.headers.location).toBeUndefined();
    };
    const NOT_A_PATH = 'The page to return to must be a path on this site, such as "/search?search=git".';
    // Anything a browser would take to another site, or that is no path at all.
    for (const returnTo of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example/',
      '/.//evil.example/',
      '/a/..//evil.example/',
      'javascript:alert(1)',
      'search',
      '/search\r\nx-injected: 1',
      '',
    ]) {
      await refused({ choice: 'granted', returnTo }, 400, NOT_A_PATH);
    }
    await refused({ choice: 'granted' }, 400, NOT_A_PATH);
    const BAD_CHOICE = 'The cookie choice must be "granted" (accept) or "denied" (decline).';
    await refused({ choice: 'maybe', returnTo: '/' }, 400, BAD_CHOICE);
    await refused({ returnTo: '/' }, 400, BAD_CHOICE);
    // Another site's page posting the form for its visitor: no choice is made for them.
    const FORGED = 'The cookie choice can only be made on this marketplace’s own pages.';
    await refused({ choice: 'granted', returnTo: '/' }, 403, FORGED, {
      'sec-fetch-site': 'cross-site',
      origin: 'https://evil.example',
    });
    await refused({ choice: 'granted', returnTo: '/' }, 403, FORGED, { 'sec-fetch-site': 'same-site' });
    await refused({ choice: 'granted', returnTo: '/' }, 403, FORGED, { origin: 'https://evil.example' });
    await refused({ choice: 'granted', returnTo: '/' }, 403, FORGED, { origin: 'null' });
  });

  it('downloads always count; a browser’s is told apart only with consent, the IDE’s as the setting says', async () => {
    await t.db.execute(sql`DELETE FROM insight_events`);
    const download = (headers: Record<string, string>, query = '') =>
      call(undefined, {
        method: 'GET',
        url: `/plugin/download?updateId=${VERSIONS.gitToolbox242Open}${query}`,
        headers: { 'user-agent': BROWSER, ...headers },
      });
    expect((await download({})).statusCode).toBe(200);
    expect((await download({ cookie: 'mp_consent=denied' })).statusCode).toBe(200);
    expect((await download({ cookie: 'mp_consent=granted' })).statusCode).toBe(200);
    expect((await download({}, `&build=${IDE_BUILD}`)).statusCode).toBe(200);
    const events = await selectRows<{ visitor: string | null; from_ide: boolean }>(
      t.db,
      sql`SELECT visitor, from_ide FROM insight_events WHERE kind = 'download' ORDER BY occurred_at`,
    );
    expect(events.map((event) => [event.from_ide, event.visitor !== null])).toEqual([
      [false, false],
      [false, false],
      [false, true],
      [true, true],
    ]);
  });
});

describe.each(DATABASE_KINDS)('the insight recorder and consent on %s', (kind) => {
  let testDatabase: TestDatabase;
  const countries = { countryOf: () => 'DE' };
  const at = new Date();
  const browserRequest = { ip: '203.0.113.9', userAgent: BROWSER, buildParameter: undefined };
  const ideRequest = { ip: '203.0.113.9', userAgent: 'IntelliJ IDEA/2024.2', buildParameter: IDE_BUILD };

  beforeAll(async () => {
    testDatabase = await createTestDatabase({ kind });
  });
  afterAll(async () => testDatabase?.dispose());

  it('required for every request: no hash without consent, from browser or IDE; a hash with it', async () => {
    const recorder = new InsightRecorder(testDatabase.database.db, countries, 'all');
    expect((await recorder.describe(browserRequest, at)).visitor).toBeNull();
    expect((await recorder.describe(ideRequest, at)).visitor).toBeNull();
    const granted = await recorder.describe({ ...browserRequest, consent: 'granted' }, at);
    expect(typeof granted.visitor).toBe('bigint');
    expect(granted.country).toBe('DE');
  });

  it('not required: a hash for every request but one that declined', async () => {
    const recorder = new InsightRecorder(testDatabase.database.db, countries, 'none');
    const first = await recorder.describe(browserRequest, at);
    expect(typeof first.visitor).toBe('bigint');
    expect((await recorder.describe({ ...browserRequest, consent: 'granted' }, at)).visitor).toBe(
      first.visitor,
    );
    expect((await recorder.describe({ ...browserRequest, consent: 'denied' }, at)).visitor).toBeNull();
  });

  it('a download without a hash is counted but is no unique downloader', async () => {
    const db = testDatabase.database.db;
    const recorder = new InsightRecorder(db, countries, 'all');
    const version = { pluginId: 1, version: '1.0', channel: '' };
    await recorder.recordDownload(db, await recorder.describe(browserRequest, at), version, at);
    await recorder.recordDownload(db, await recorder.describe(browserRequest, at), version, at);
    await recorder.recordDownload(
      db,
      await recorder.describe({ ...browserRequest, consent: 'granted' }, at),
      version,
      at,
    );
    const [row] = await selectRows<{ downloads: string; unique: string }>(
      db,
      sql`SELECT count(*) AS downloads, count(DISTINCT visitor) AS unique FROM insight_events WHERE plugin_id = 1`,
    );
    expect(Number(row!.downloads)).toBe(3);
    expect(Number(row!.unique)).toBe(1);
  });
});
