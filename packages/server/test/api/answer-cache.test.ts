import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerCache, etagMatches } from '../../src/plugins/app/answer-cache';

const answer = (text: string) => ({
  body: Buffer.from(text),
  etag: `"${text}"`,
  contentType: 'application/json; charset=utf-8',
  extraHeaders: {},
});

describe('AnswerCache', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('keeps an answer for its time, then lets one request make the next while others get the old one', () => {
    const cache = new AnswerCache(5000, 60, 10, 2000);
    cache.set('/a', answer('first'));
    vi.advanceTimersByTime(4999);
    expect(cache.get('/a')?.etag).toBe('"first"');
    vi.advanceTimersByTime(1);
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.get('/a')?.etag).toBe('"first"');
    cache.set('/a', answer('second'));
    expect(cache.get('/a')?.etag).toBe('"second"');
  });

  it('forgets an answer whose refresh never came', () => {
    const cache = new AnswerCache(5000, 60, 10, 2000);
    cache.set('/a', answer('first'));
    vi.advanceTimersByTime(5000);
    expect(cache.get('/a')).toBeUndefined();
    vi.advanceTimersByTime(2001);
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.get('/a')).toBeUndefined();
  });

  it('keeps at most its number of answers, dropping the oldest, and keeps nothing when turned off', () => {
    const cache = new AnswerCache(5000, 60, 2);
    cache.set('/a', answer('a'));
    cache.set('/b', answer('b'));
    cache.set('/c', answer('c'));
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.get('/c')?.etag).toBe('"c"');
    cache.clear();
    expect(cache.get('/c')).toBeUndefined();
    const off = new AnswerCache(0, 60);
    off.set('/a', answer('a'));
    expect(off.get('/a')).toBeUndefined();
  });
});

describe('the bytes an answer cache holds', () => {
  const sized = (bytes: number) => ({ ...answer('x'), body: Buffer.alloc(bytes) });

  it('drops the oldest answers to stay within its bytes, and never keeps one answer too large', () => {
    const cache = new AnswerCache(5000, 60, 100, 2000, 8000);
    cache.set('/a', sized(900));
    cache.set('/b', sized(900));
    expect(cache.heldBytes).toBe(1800);
    cache.set('/huge', sized(1001));
    expect(cache.get('/huge')).toBeUndefined();
    for (const path of ['/c', '/d', '/e', '/f', '/g', '/h', '/i']) cache.set(path, sized(900));
    expect(cache.heldBytes).toBeLessThanOrEqual(8000);
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.get('/i')).toBeDefined();
    cache.set('/i', sized(100));
    // /b to /i remain (8 x 900); /i is replaced by a smaller answer.
    expect(cache.heldBytes).toBe(7 * 900 + 100);
    cache.clear();
    expect(cache.heldBytes).toBe(0);
  });
});

describe('etagMatches', () => {
  it('compares weakly, as RFC 9110 asks for If-None-Match', () => {
    expect(etagMatches('"x"', '"x"')).toBe(true);
    expect(etagMatches('W/"x"', '"x"')).toBe(true);
    expect(etagMatches('"y", "x"', '"x"')).toBe(true);
    expect(etagMatches('*', '"x"')).toBe(true);
    expect(etagMatches('"y"', '"x"')).toBe(false);
    expect(etagMatches(undefined, '"x"')).toBe(false);
  });
});
