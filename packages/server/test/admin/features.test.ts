import type { InjectOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FeatureFlag, FeatureGroups, FeatureStatistic, MyFeatures } from '@marketplace/api-contract';
import { evaluateFeature } from '@marketplace/core';
import { DATABASE_KINDS } from '../db/test-database';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';
import { selectRows } from '../../src/search/sql';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe.each(DATABASE_KINDS)('/api/features on %s', (kind) => {
  let t: ReviewsTestApp;
  let admin: number;
  let member: number;
  let stranger: number;
  let vendorId: number;

  const as = async <T>(userId: number | undefined, request: InjectOptions, status = 200): Promise<T> => {
    const response = await t.call(userId, request);
    expect(response.statusCode, response.body).toBe(status);
    return (response.body === '' ? undefined : response.json()) as T;
  };
  const flagCount = async () =>
    Number(
      (await selectRows<{ count: string }>(t.db, sql`SELECT count(*) AS count FROM feature_flags`))[0]!.count,
    );
  const auditOf = async (name: string) =>
    selectRows<{ action: string; actor_id: number; details: Record<string, unknown> }>(
      t.db,
      sql`SELECT action, actor_id, details FROM plugin_audit_log
        WHERE details->>'subject' = ${`feature:${name}`} ORDER BY id`,
    );

  beforeAll(async () => {
    t = await createReviewsTestApp({ kind, catalogue: false });
    admin = await t.addUser('flags-admin', { isAdmin: true });
    member = await t.addUser('flags-member');
    stranger = await t.addUser('flags-stranger');
    const [vendor] = await selectRows<{ id: number }>(
      t.db,
      sql`INSERT INTO vendors (name) VALUES ('Acme Tools') RETURNING id`,
    );
    vendorId = vendor!.id;
    await t.db.execute(sql`INSERT INTO plugins (family, xml_id, name, owner_id, vendor_id, lifecycle_state)
      VALUES ('intellij', 'com.acme.tool', 'Acme tool', ${member}, ${vendorId}, 'published')`);
  });
  afterAll(async () => t?.close());

  it('creates flags of every type, answers them with logins and vendor names, and audits each', async () => {
    const created = await as<FeatureFlag>(
      admin,
      {
        method: 'POST',
        url: '/api/features',
        payload: {
          name: 'home-new-items',
          type: 'boolean',
          description: 'The newest items on the home page',
          value: false,
          reason: 'trying it',
        },
      },
      201,
    );
    expect(created).toMatchObject({
      name: 'home-new-items',
      type: 'boolean',
      value: false,
      description: 'The newest items on the home page',
      updatedBy: 'flags-admin',
    });
    await as(
      admin,
      {
        method: 'POST',
        url: '/api/features',
        payload: { name: 'search-v2', type: 'percentage', value: 30, description: 'New search ranking' },
      },
      201,
    );
    const listed = await as<FeatureFlag>(
      admin,
      {
        method: 'POST',
        url: '/api/features',
        payload: { name: 'beta-upload', type: 'users', value: ['flags-member', ' flags-member '] },
      },
      201,
    );
    expect(listed.value).toEqual(['flags-member']);
    const vendorFlag = await as<FeatureFlag>(
      admin,
      {
        method: 'POST',
        url: '/api/features',
        payload: { name: 'acme.preview', type: 'vendors', value: ['Acme Tools'] },
      },
      201,
    );
    expect(vendorFlag.value).toEqual(['Acme Tools']);
    const all = await as<FeatureFlag[]>(admin, { method: 'GET', url: '/api/features' });
    expect(all.map((flag) => flag.name)).toEqual([
      'acme.preview',
      'beta-upload',
      'home-new-items',
      'search-v2',
    ]);
    const audit = await auditOf('home-new-items');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'feature.create', actor_id: admin });
    expect(audit[0]!.details).toMatchObject({ reason: 'trying it', type: 'boolean', value: false });
  });

  it('refuses bad input with 400 and a message, changing nothing', async () => {
    const before = await flagCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'flag-a', type: 'boolean', value: 50 }, /boolean flag’s value is true or false/],
      [{ name: 'flag-a', type: 'boolean', value: 'true' }, /true or false/],
      [{ name: 'flag-a', type: 'percentage', value: 101 }, /from 0 to 100; 101 is not/],
      [{ name: 'flag-a', type: 'percentage', value: -5 }, /from 0 to 100; -5 is not/],
      [
        { name: 'flag-a', type: 'users', value: ['flags-member', 'nobody-here'] },
        /No user has the login "nobody-here"/,
      ],
      [{ name: 'flag-a', type: 'vendors', value: ['No Such Vendor'] }, /no vendor named "No Such Vendor"/],
      [{ name: 'flag-a', type: 'colour', value: true }, /type is one of boolean, percentage, users, vendors/],
      [{ name: 'Flag A', type: 'boolean', value: true }, /lower-case/],
      [{ name: 'statistic', type: 'boolean', value: true }, /path below/],
      [{ name: 'home-new-items', type: 'boolean', value: true }, /"home-new-items" exists already/],
    ];
    for (const [payload, message] of cases) {
      const body = await as<{ message: string }>(
        admin,
        { method: 'POST', url: '/api/features', payload },
        400,
      );
      expect(body.message, JSON.stringify(payload)).toMatch(message);
    }
    expect(await flagCount()).toBe(before);

    const change = async (payload: Record<string, unknown>, message: RegExp) => {
      const body = await as<{ message: string }>(
        admin,
        { method: 'PUT', url: '/api/features/search-v2', payload },
        400,
      );
      expect(body.message).toMatch(message);
    };
    await change({ value: 150 }, /150 is not/);
    await change({ value: true }, /whole number/);
    await change({ type: 'users' }, /needs a value of that type/);
    await change({ type: 'users', value: ['ghost'] }, /"ghost"/);
    const unchanged = await as<FeatureFlag>(admin, { method: 'GET', url: '/api/features/search-v2' });
    expect(unchanged).toMatchObject({ type: 'percentage', value: 30 });
    expect((await auditOf('search-v2')).map((entry) => entry.action)).toEqual(['feature.create']);
    await as(admin, { method: 'PUT', url: '/api/features/no-such-flag', payload: { value: true } }, 404);
  });

  it('is for administrators only, but for mine', async () => {
    await as(undefined, { method: 'GET', url: '/api/features' }, 401);
    await as(member, { method: 'GET', url: '/api/features' }, 403);
    await as(
      member,
      { method: 'POST', url: '/api/features', payload: { name: 'x-y', type: 'boolean', value: true } },
      403,
    );
    await as(member, { method: 'PUT', url: '/api/features/home-new-items', payload: { value: true } }, 403);
    await as(member, { method: 'DELETE', url: '/api/features/home-new-items' }, 403);
    await as(member, { method: 'GET', url: '/api/features/statistic' }, 403);
    await as(undefined, { method: 'GET', url: '/api/features/search?query=home' }, 401);
    await as(undefined, { method: 'GET', url: '/api/features/group-by-types' }, 401);
    await as(undefined, { method: 'GET', url: '/api/features/mine' }, 200);
  });

  it('searches by name and description, and groups by type', async () => {
    const byName = await as<FeatureFlag[]>(admin, { method: 'GET', url: '/api/features/search?query=HOME' });
    expect(byName.map((flag) => flag.name)).toEqual(['home-new-items']);
    const byDescription = await as<FeatureFlag[]>(admin, {
      method: 'GET',
      url: '/api/features/search?query=search%20ranking',
    });
    expect(byDescription.map((flag) => flag.name)).toEqual(['search-v2']);
    const ofType = await as<FeatureFlag[]>(admin, {
      method: 'GET',
      url: '/api/features/search?query=&type=users',
    });
    expect(ofType.map((flag) => flag.name)).toEqual(['beta-upload']);
    const groups = await as<FeatureGroups>(admin, { method: 'GET', url: '/api/features/group-by-types' });
    expect(
      Object.fromEntries(Object.entries(groups).map(([type, flags]) => [type, flags.map((f) => f.name)])),
    ).toEqual({
      boolean: ['home-new-items'],
      percentage: ['search-v2'],
      users: ['beta-upload'],
      vendors: ['acme.preview'],
    });
  });

  it('mine: each flag as it applies to the asker, sticky per user or browser; the server reads the same', async () => {
    const guest = await as<MyFeatures>(undefined, { method: 'GET', url: '/api/features/mine' });
    expect(guest.flags).toEqual({
      'acme.preview': false,
      'beta-upload': false,
      'home-new-items': false,
      // No user and no browser id: a share between 0 and 100 is off.
      'search-v2': false,
    });
    const ofMember = await as<MyFeatures>(member, { method: 'GET', url: '/api/features/mine' });
    expect(ofMember.flags['beta-upload']).toBe(true);
    expect(ofMember.flags['acme.preview']).toBe(true);
    expect(ofMember.flags['search-v2']).toBe(
      evaluateFeature('search-v2', { type: 'percentage', percent: 30 }, { userId: member }),
    );
    const ofStranger = await as<MyFeatures>(stranger, { method: 'GET', url: '/api/features/mine' });
    expect(ofStranger.flags['beta-upload']).toBe(false);
    expect(ofStranger.flags['acme.preview']).toBe(false);

    // About 30% of browsers, each always the same.
    let on = 0;
    for (let index = 0; index < 40; index += 1) {
      const browser = `browser-${String(index).padStart(4, '0')}`;
      const first = await as<MyFeatures>(undefined, {
        method: 'GET',
        url: `/api/features/mine?browser=${browser}`,
      });
      const again = await as<MyFeatures>(undefined, {
        method: 'GET',
        url: `/api/features/mine?browser=${browser}`,
      });
      expect(again.flags['search-v2']).toBe(first.flags['search-v2']);
      if (first.flags['search-v2']) on += 1;
    }
    expect(on).toBeGreaterThan(2);
    expect(on).toBeLessThan(25);

    const response = await t.call(undefined, { method: 'GET', url: '/api/features/mine' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await t.app.features.isOn('beta-upload', { kind: 'guest' })).toBe(false);
    expect(await t.app.features.isOn('no-such-flag', { kind: 'guest' })).toBe(false);
  });

  it('a change is seen at once, restarts the usage count, and is audited with before and after', async () => {
    await as<FeatureFlag>(admin, {
      method: 'PUT',
      url: '/api/features/home-new-items',
      payload: { value: true, reason: 'launch' },
    });
    const mine = await as<MyFeatures>(undefined, { method: 'GET', url: '/api/features/mine' });
    expect(mine.flags['home-new-items']).toBe(true);
    const audit = await auditOf('home-new-items');
    expect(audit.at(-1)).toMatchObject({ action: 'feature.update', actor_id: admin });
    expect(audit.at(-1)!.details).toMatchObject({
      reason: 'launch',
      before: { value: false },
      after: { value: true },
    });
    const changedType = await as<FeatureFlag>(admin, {
      method: 'PUT',
      url: '/api/features/beta-upload',
      payload: { type: 'percentage', value: 100 },
    });
    expect(changedType).toMatchObject({ type: 'percentage', value: 100 });
  });

  it('statistic: evaluations and how many came out on, counted in process and flushed on read', async () => {
    const before = await as<FeatureStatistic>(admin, { method: 'GET', url: '/api/features/statistic' });
    const homeBefore = before.flags.find((flag) => flag.name === 'home-new-items')!;
    expect(homeBefore.evaluations).toBe(1);
    expect(homeBefore.on).toBe(1);
    for (let index = 0; index < 3; index += 1) {
      await as(undefined, { method: 'GET', url: '/api/features/mine' });
    }
    await t.app.features.isOn('home-new-items', { kind: 'guest' });
    // Counting is in memory: nothing is written per evaluation.
    const [row] = await selectRows<{ evaluations: string }>(
      t.db,
      sql`SELECT evaluations FROM feature_flags WHERE name = 'home-new-items'`,
    );
    expect(Number(row!.evaluations)).toBe(1);
    const after = await as<FeatureStatistic>(admin, { method: 'GET', url: '/api/features/statistic' });
    const home = after.flags.find((flag) => flag.name === 'home-new-items')!;
    expect(home).toMatchObject({ evaluations: 5, on: 5, off: 0, onPercent: 100 });
    expect(home.countedSince).toBeLessThanOrEqual(Date.now());
    expect(home.lastEvaluatedAt).toBeGreaterThanOrEqual(home.countedSince);
    const acme = after.flags.find((flag) => flag.name === 'acme.preview')!;
    expect(acme.on).toBe(1);
    expect(acme.off).toBe(acme.evaluations - 1);
  });

  it('deletes a flag: off for everyone since, and audited', async () => {
    await as(admin, { method: 'DELETE', url: '/api/features/home-new-items?reason=done' }, 204);
    const mine = await as<MyFeatures>(undefined, { method: 'GET', url: '/api/features/mine' });
    expect(mine.flags).not.toHaveProperty('home-new-items');
    expect(await t.app.features.isOn('home-new-items', { kind: 'guest' })).toBe(false);
    expect((await auditOf('home-new-items')).at(-1)).toMatchObject({ action: 'feature.delete' });
    await as(admin, { method: 'DELETE', url: '/api/features/home-new-items' }, 404);
  });
});
