import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  API_ERRORS,
  CompatibleUpdatesBody,
  ErrorBody,
  SearchPluginsQuery,
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
