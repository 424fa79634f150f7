import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerCache, etagMatches, isPersonalRequest } from '../../src/plugins/app/answer-cache';
import caching from '../../src/plugins/app/caching';

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

describe('answers made while the cache was cleared', () => {
  it('keeps no answer from a request that started before a clear', () => {
    const cache = new AnswerCache(5000, 60);
    const startedBeforeChange = cache.clears;
    cache.clear();
    cache.keep('/api/plugins/1', {}, answer('listed'), startedBeforeChange);
    expect(cache.lookup('/api/plugins/1', {})).toBeUndefined();
    cache.keep('/api/plugins/1', {}, answer('blocked'), cache.clears);
    expect(cache.lookup('/api/plugins/1', {})?.etag).toBe('"blocked"');
  });

  it('replays, after an admin’s change, what was read after it, not a slow read from before', async () => {
    const app = Fastify();
    await app.register(caching, { answers: new AnswerCache(60_000, 60) });
    let state = 'listed';
    let slowReadDone = false;
    let readStarted!: () => void;
    const started = new Promise<void>((resolve) => (readStarted = resolve));
    let finishRead!: () => void;
    const finish = new Promise<void>((resolve) => (finishRead = resolve));
    app.get('/api/plugins/1', { config: { cache: 'public' } }, async () => {
      const seen = state;
      if (!slowReadDone) {
        readStarted();
        await finish;
      }
      return { state: seen };
    });
    app.post('/api/admin/block', async () => {
      state = 'blocked';
      return { state };
    });
    await app.ready();

    const slowRead = app.inject({ method: 'GET', url: '/api/plugins/1' }).then((response) => response);
    await started;
    expect((await app.inject({ method: 'POST', url: '/api/admin/block' })).statusCode).toBe(200);
    slowReadDone = true;
    finishRead();
    expect((await slowRead).json()).toEqual({ state: 'listed' });
    expect((await app.inject({ method: 'GET', url: '/api/plugins/1' })).json()).toEqual({ state: 'blocked' });
    await app.close();
  });
});

describe('the consent cookie', () => {
  const page = (text: string) => ({ ...answer(text), contentType: 'text/html; charset=utf-8' });

  it('leaves a request public; any other cookie or a token makes it personal', () => {
    expect(isPersonalRequest({})).toBe(false);
    expect(isPersonalRequest({ cookie: 'mp_consent=granted' })).toBe(false);
    expect(isPersonalRequest({ cookie: 'mp_consent=denied; ' })).toBe(false);
    expect(isPersonalRequest({ cookie: 'mp_consent=granted; session=abc' })).toBe(true);
    expect(isPersonalRequest({ cookie: 'theme' })).toBe(true);
    expect(isPersonalRequest({ authorization: 'Bearer x' })).toBe(true);
  });

  it('keeps a page drawn for a visitor who chose apart from the one with the banner; JSON is shared', () => {
    const cache = new AnswerCache(5000, 60);
    const granted = { cookie: 'mp_consent=granted' };
    const denied = { cookie: 'mp_consent=denied' };
    cache.keep('/plugin/1-x', {}, page('with-banner'), cache.clears);
    expect(cache.lookup('/plugin/1-x', granted)).toBeUndefined();
    cache.keep('/plugin/1-x', granted, page('without-banner'), cache.clears);
    expect(cache.lookup('/plugin/1-x', denied)?.etag).toBe('"without-banner"');
    expect(cache.lookup('/plugin/1-x', {})?.etag).toBe('"with-banner"');
    // An unknown value is no choice: that visitor sees the banner.
    expect(cache.lookup('/plugin/1-x', { cookie: 'mp_consent=maybe' })?.etag).toBe('"with-banner"');

    cache.keep('/api/plugins/1', granted, answer('item'), cache.clears);
    expect(cache.lookup('/api/plugins/1', {})?.etag).toBe('"item"');
    expect(cache.lookup('/api/plugins/1', denied)?.etag).toBe('"item"');
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
