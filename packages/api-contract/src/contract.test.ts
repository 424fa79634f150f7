import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  API_ERRORS,
  AuthUserSchema,
  CompatibleUpdatesBody,
  CreateApiTokenBody,
  CreateReviewBody,
  DsaReportBody,
  ErrorBody,
  ModerationPageQuery,
  SearchPluginsQuery,
  SearchSuggestResult,
  SetPluginTagsBody,
  UpdatePluginFieldsBody,
  UserPluginsQuery,
  isApiErrorCode,
} from './index';

describe('API errors', () => {
  it('map every code to a 4xx or 5xx status and a lower-case type the client understands', () => {
    for (const [code, { status, type }] of Object.entries(API_ERRORS)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(['error', 'warning']).toContain(type);
    }
    expect(API_ERRORS.notFound.status).toBe(404);
    expect(API_ERRORS.validation.status).toBe(400);
  });

  it('recognises only its own codes', () => {
    expect(isApiErrorCode('notFound')).toBe(true);
    expect(isApiErrorCode('toString')).toBe(false);
    expect(isApiErrorCode(404)).toBe(false);
  });

  it('describe the error body as { type, message }', () => {
    expect(Value.Check(ErrorBody, { type: 'error', message: 'Plugin 7 does not exist.' })).toBe(true);
    expect(Value.Check(ErrorBody, { type: 'fatal', message: 'x' })).toBe(false);
    expect(Value.Check(ErrorBody, { message: 'x' })).toBe(false);
  });
});

describe('request schemas', () => {
  it('give the search its defaults and refuse unknown sort orders', () => {
    const query = Value.Default(SearchPluginsQuery, {}) as Record<string, unknown>;
    expect(query).toMatchObject({ payment: 'all', max: 20, offset: 0 });
    expect(Value.Check(SearchPluginsQuery, { ...query, orderBy: 'update date' })).toBe(true);
    expect(Value.Check(SearchPluginsQuery, { ...query, orderBy: 'popularity' })).toBe(false);
    expect(Value.Check(SearchPluginsQuery, { ...query, max: 1000 })).toBe(false);
  });

  it("list a user's items 12 a page, in every family but edu unless asked", () => {
    const query = Value.Default(UserPluginsQuery, {}) as { size: number; family: string[] };
    expect(query.size).toBe(12);
    expect(query.family).not.toContain('edu');
    expect(query.family).toContain('intellij');
    expect(query.family).toHaveLength(9);
  });

  it('accept the body real IDEs send for compatible updates', () => {
    const body = { build: 'IU-241.14494.240', pluginXMLIds: ['a', 'b'], channel: '' };
    expect(Value.Check(CompatibleUpdatesBody, body)).toBe(true);
    expect(Value.Check(CompatibleUpdatesBody, { ...body, build: '' })).toBe(false);
  });
});

describe('account schemas', () => {
  it('describe the signed-in user with a numeric id, and a guest with nulls', () => {
    const guest = {
      guest: true,
      id: null,
      name: null,
      login: null,
      email: null,
      emailVerified: false,
      banned: false,
      isAdmin: false,
    };
    expect(Value.Check(AuthUserSchema, guest)).toBe(true);
    const alice = { ...guest, guest: false, id: 7, name: 'Alice', login: 'alice' };
    expect(Value.Check(AuthUserSchema, alice)).toBe(true);
    expect(Value.Check(AuthUserSchema, { ...alice, id: '7' })).toBe(false);
  });

  it('create tokens with known scopes only, nothing else in the body', () => {
    const body = { name: 'CI', scopes: ['upload'], expiresInDays: 90 };
    expect(Value.Check(CreateApiTokenBody, body)).toBe(true);
    expect(Value.Check(CreateApiTokenBody, { ...body, scopes: [] })).toBe(false);
    expect(Value.Check(CreateApiTokenBody, { ...body, scopes: ['admin'] })).toBe(false);
    expect(Value.Check(CreateApiTokenBody, { ...body, expiresInDays: 3651 })).toBe(false);
    expect(Value.Check(CreateApiTokenBody, { ...body, userId: 1 })).toBe(false);
  });
});

describe('write schemas', () => {
  it('take 1 to 5 stars for a review, with any category keys (the server names unknown ones)', () => {
    const review = { pluginId: 3, rating: 5, comment: 'Fine', categories: { PERFORMANCE: 4, SPEED: 2 } };
    expect(Value.Check(CreateReviewBody, review)).toBe(true);
    expect(Value.Check(CreateReviewBody, { ...review, rating: 6 })).toBe(false);
    expect(Value.Check(CreateReviewBody, { ...review, categories: { PERFORMANCE: 0 } })).toBe(false);
  });

  it('take lists bare, as the site sends them, or wrapped, at most 30 tags', () => {
    expect(Value.Check(SetPluginTagsBody, ['Code tools', '12'])).toBe(true);
    expect(Value.Check(SetPluginTagsBody, { tags: ['Code tools', 12] })).toBe(true);
    expect(
      Value.Check(
        SetPluginTagsBody,
        Array.from({ length: 31 }, (_, index) => `tag ${index}`),
      ),
    ).toBe(false);
  });

  it('change plugin fields one by one, null clearing a link', () => {
    expect(Value.Check(UpdatePluginFieldsBody, { name: 'Tool', forumUrl: null })).toBe(true);
    expect(Value.Check(UpdatePluginFieldsBody, { name: '' })).toBe(false);
    expect(Value.Check(UpdatePluginFieldsBody, { url: 'x'.repeat(2049) })).toBe(false);
  });

  it('keep a DSA statement of reasons optional, and page moderation lists 20 at a time', () => {
    expect(Value.Check(DsaReportBody, null)).toBe(true);
    expect(Value.Check(DsaReportBody, { category: 'scam', facts: 'It steals tokens' })).toBe(true);
    expect(Value.Check(DsaReportBody, { category: 3 })).toBe(false);
    expect(Value.Default(ModerationPageQuery, {})).toEqual({ max: 20, offset: 0 });
  });
});

describe('answer schemas', () => {
  it('give each suggested item its family, one the marketplace knows, so the search box can name it', () => {
    const suggestion = {
      id: 2,
      name: 'Kotlin Koans',
      xmlId: 'edu.koans',
      link: '/plugin/2-kotlin-koans',
      isTheme: false,
    };
    const answer = (plugin: object) => ({ plugins: [plugin], tags: [] });
    expect(Value.Check(SearchSuggestResult, answer({ ...suggestion, family: 'edu' }))).toBe(true);
    expect(Value.Check(SearchSuggestResult, answer(suggestion))).toBe(false);
    expect(Value.Check(SearchSuggestResult, answer({ ...suggestion, family: 'theme' }))).toBe(false);
  });
});
