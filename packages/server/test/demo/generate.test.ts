import { isProductCode, THEME_TAG_ID } from '@marketplace/core';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DOWNLOAD_HISTORY_DAYS, generateDemoCatalogue, type DemoPlugin } from '../../src/demo';

const today = new Date('2026-11-21T12:00:00Z');
const pluginsOf = (seed: number, count = 120) => [
  ...generateDemoCatalogue({ plugins: count, seed, today }).plugins(),
];

describe('the demo catalogue generator', () => {
  it('makes the same catalogue from the same seed, and another from another seed', () => {
    const first = pluginsOf(7);
    expect(pluginsOf(7)).toEqual(first);
    const other = pluginsOf(8);
    expect(other.map((plugin) => plugin.name)).not.toEqual(first.map((plugin) => plugin.name));
    expect(generateDemoCatalogue({ plugins: 50, seed: 7, today }).users).toEqual(
      generateDemoCatalogue({ plugins: 50, seed: 7, today }).users,
    );
  });

  it('covers every family, themes dark and light, courses with languages and every pricing model', () => {
    const plugins = pluginsOf(1, 400);
    const families = new Set(plugins.map((plugin) => plugin.family));
    expect([...families].sort()).toEqual([
      'dotnet',
      'edu',
      'fleet',
      'hub',
      'intellij',
      'space',
      'teamcity',
      'teamcity_recipes',
      'toolbox',
      'youtrack',
    ]);
    const themes = plugins.filter((plugin) => plugin.tagIds.includes(THEME_TAG_ID));
    expect(themes.length).toBeGreaterThan(10);
    for (const theme of themes) expect(theme.themes.length).toBeGreaterThan(0);
    const schemes = new Set(themes.flatMap((theme) => theme.themes.map((variant) => variant.dark)));
    expect(schemes).toEqual(new Set([true, false]));
    for (const course of plugins.filter((plugin) => plugin.family === 'edu')) {
      expect(course.programmingLanguage).not.toBeNull();
      expect(course.compatibleProducts.length).toBeGreaterThan(0);
    }
    expect(new Set(plugins.map((plugin) => plugin.pricingModel))).toEqual(
      new Set(['FREE', 'FREEMIUM', 'PAID']),
    );
    expect(new Set(plugins.map((plugin) => plugin.name)).size).toBe(plugins.length);
    expect(new Set(plugins.map((plugin) => `${plugin.family}/${plugin.xmlId}`)).size).toBe(plugins.length);
  });

  it('gives versions real build bounds over recent branches, some open-ended, some in the eap channel', () => {
    const versions = pluginsOf(2, 300).flatMap((plugin) => plugin.versions);
    const branches = new Set(versions.map((version) => Number(version.sinceBuild.split('.')[0])));
    expect(Math.min(...branches)).toBe(223);
    expect(Math.max(...branches)).toBe(253);
    expect(versions.some((version) => version.untilBuild === null)).toBe(true);
    expect(versions.some((version) => version.untilBuild?.endsWith('.*'))).toBe(true);
    expect(versions.some((version) => version.channel === 'eap')).toBe(true);
    for (const version of versions) expect(version.sinceBuild).toMatch(/^\d{3}(\.\d+)?$/);
  });

  it('counts a year of daily downloads ending at the seed date, within each version total', () => {
    const plugins = pluginsOf(3, 200);
    const days = plugins.flatMap((plugin) => plugin.dailyDownloads.days);
    expect(days.reduce((latest, day) => (day > latest ? day : latest))).toBe('2026-11-21');
    expect(days.reduce((earliest, day) => (day < earliest ? day : earliest))).toBe('2025-11-22');
    expect(DOWNLOAD_HISTORY_DAYS).toBe(365);
    for (const plugin of plugins) {
      const perVersion = new Map<number, number>();
      plugin.dailyDownloads.versionIds.forEach((versionId, index) => {
        perVersion.set(
          versionId,
          (perVersion.get(versionId) ?? 0) + (plugin.dailyDownloads.counts[index] as number),
        );
      });
      for (const version of plugin.versions) {
        expect(perVersion.get(version.id) ?? 0).toBeLessThanOrEqual(version.downloads);
      }
    }
    // Popularity is uneven, as in a real marketplace: the top tenth has most of the downloads.
    const totals = plugins.map(totalDownloads).sort((a, b) => b - a);
    const top = totals.slice(0, 20).reduce((sum, value) => sum + value, 0);
    expect(top / totals.reduce((sum, value) => sum + value, 0)).toBeGreaterThan(0.5);
  });

  it('blocks one approved stable version of a partially blocked item and still counts each day once per version', () => {
    // 5,000 items hold a few dozen partially blocked ones, some with only an eap version beside the blocked one.
    let partial = 0;
    const countedTwice: string[] = [];
    const withoutApprovedStable: number[] = [];
    for (const plugin of generateDemoCatalogue({ plugins: 5000 }).plugins()) {
      const seen = new Set<string>();
      plugin.dailyDownloads.days.forEach((day, index) => {
        const key = `${plugin.dailyDownloads.versionIds[index]} ${day}`;
        if (seen.has(key)) countedTwice.push(`${plugin.id}: ${key}`);
        seen.add(key);
      });
      if (plugin.blockState !== 'partial') continue;
      partial += 1;
      const blocked = plugin.versions.some((version) => version.approvalState === 'blocked');
      const stableApproved = plugin.versions.some(
        (version) => version.channel === '' && version.approvalState === 'approved',
      );
      if (blocked && !stableApproved) withoutApprovedStable.push(plugin.id);
    }
    expect(partial).toBeGreaterThan(0);
    expect(countedTwice).toEqual([]);
    expect(withoutApprovedStable).toEqual([]);
  }, 60_000);

  it('has the demo accounts and lets the developer own and answer for the first items', () => {
    const catalogue = generateDemoCatalogue({ plugins: 30, seed: 4, today });
    expect(catalogue.users.slice(0, 3).map((user) => [user.login, user.isAdmin])).toEqual([
      [DEMO_ACCOUNTS.admin.login, true],
      [DEMO_ACCOUNTS.developer.login, false],
      [DEMO_ACCOUNTS.visitor.login, false],
    ]);
    const plugins = [...catalogue.plugins()];
    const owned = plugins.filter((plugin) => plugin.ownerId === DEMO_ACCOUNTS.developer.id);
    expect(owned.length).toBe(6);
    for (const plugin of owned) expect(plugin.developerIds).toEqual([DEMO_ACCOUNTS.developer.id]);
    const replies = owned.flatMap((plugin) => plugin.reviews.filter((review) => review.reply));
    for (const review of replies) expect(review.reply?.authorId).toBe(DEMO_ACCOUNTS.developer.id);
    // One review per user per item.
    for (const plugin of plugins) {
      const authors = plugin.reviews.map((review) => review.authorId);
      expect(new Set(authors).size).toBe(authors.length);
    }
  });

  it('prices paid and freemium items as vendors do and gives their versions a product descriptor', () => {
    const plugins = pluginsOf(1, 400);
    const priced = plugins.filter((plugin) => plugin.pricingModel !== 'FREE');
    expect(priced.length).toBeGreaterThan(10);
    for (const plugin of plugins) {
      expect(plugin.commerce === null).toBe(plugin.pricingModel === 'FREE');
      for (const version of plugin.versions) {
        expect(version.product === null).toBe(plugin.pricingModel === 'FREE');
        if (version.product) {
          expect(isProductCode(version.product.code)).toBe(true);
          expect(version.product.optional).toBe(plugin.pricingModel === 'FREEMIUM');
          expect(String(version.product.releaseVersion)).toMatch(/^20\d\d[123]$/);
        }
      }
      for (const list of plugin.commerce?.priceLists ?? []) {
        const price = (licenseKind: string, billingPeriod: string) =>
          list.prices.find(
            (entry) => entry.licenseKind === licenseKind && entry.billingPeriod === billingPeriod,
          )?.amountMinor;
        const personal = price('PERSONAL', 'YEARLY')!;
        expect(personal).toBeGreaterThanOrEqual(2_900);
        expect(personal).toBeLessThanOrEqual(19_900);
        expect(Math.abs(price('ORGANIZATION', 'YEARLY')! - 2 * personal)).toBeLessThanOrEqual(600);
        const monthly = price('PERSONAL', 'MONTHLY');
        if (monthly !== undefined) {
          expect([0, 90]).toContain(monthly % 100);
          expect(Math.abs(monthly * 10 - personal)).toBeLessThanOrEqual(1_000);
        }
      }
    }
    // Some rose a year ago, some announce a change, most have a trial of 30 days and some of 14.
    const lists = priced.map((plugin) => plugin.commerce!.priceLists);
    expect(lists.some((entries) => entries.filter((list) => list.effectiveAt < today).length > 1)).toBe(true);
    expect(lists.some((entries) => entries.some((list) => list.effectiveAt > today))).toBe(true);
    expect(new Set(priced.map((plugin) => plugin.commerce!.terms.trialDays))).toEqual(new Set([30, 14]));
  });

  it('tags each item with what it is: courses by level and field, plugins by language, tool or use', () => {
    const plugins = pluginsOf(1, 400);
    const names = new Map(generateDemoCatalogue({ plugins: 1, today }).tags.map((tag) => [tag.id, tag.name]));
    const tagsOf = (plugin: DemoPlugin) => plugin.tagIds.map((id) => names.get(id));
    const levels = ['Beginner', 'Intermediate', 'Advanced'];
    for (const plugin of plugins) {
      const tags = tagsOf(plugin);
      expect(tags.length, plugin.name).toBeGreaterThan(0);
      expect(new Set(tags).size, plugin.name).toBe(tags.length);
      if (plugin.family === 'edu') {
        // One level, and a field only where the course has one: no Rust course is web development.
        expect(
          tags.filter((tag) => levels.includes(tag ?? '')),
          plugin.name,
        ).toHaveLength(1);
        for (const tag of tags) {
          expect([...levels, 'Algorithms', 'Web development', 'Data science'], plugin.name).toContain(tag);
        }
        if (plugin.programmingLanguage === 'Rust') expect(tags, plugin.name).not.toContain('Web development');
      } else {
        for (const level of levels) expect(tags, plugin.name).not.toContain(level);
      }
      if (plugin.tagIds.includes(THEME_TAG_ID)) expect(tags, plugin.name).toEqual(['Theme']);
      if (plugin.family === 'fleet') expect(tags, plugin.name).toContain('Languages');
      if (plugin.family === 'space' || plugin.family === 'hub' || plugin.family === 'toolbox') {
        expect(tags, plugin.name).not.toContain('Languages');
      }
    }
    // The browser tests find their AI assistant plugin by this tag.
    expect(
      plugins.some((plugin) => plugin.family === 'intellij' && tagsOf(plugin).includes('AI-Powered')),
    ).toBe(true);
  });

  it('refuses a size or seed that is not a whole number', () => {
    expect(() => generateDemoCatalogue({ plugins: 0 })).toThrow(/at least 1/);
    expect(() => generateDemoCatalogue({ plugins: 2.5 })).toThrow(/whole number/);
    expect(() => generateDemoCatalogue({ seed: Number.NaN })).toThrow(/seed must be a whole number/);
  });
});

function totalDownloads(plugin: DemoPlugin): number {
  return plugin.versions.reduce((sum, version) => sum + version.downloads, 0);
}
