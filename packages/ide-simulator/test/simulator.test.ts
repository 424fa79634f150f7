import { afterEach, describe, expect, it } from 'vitest';
import {
  CONFIRMATIONS_PATH,
  RECEIVED_REQUESTS_PATH,
  startIdeSimulator,
  TRUST_ANSWER_REMEMBERED_MS,
} from '../src/index';
import type { IdeSimulator, IdeSimulatorOptions } from '../src/index';
import { get, manualClock } from './http';
import type { RawAnswer } from './http';

const started: IdeSimulator[] = [];

/**
 * A simulator for the tests of everything but origin trust, which say their policy themselves. Their
 * requests name no page, which the real IDE asks about, so its dialog is answered yes at once here.
 */
async function start(options: IdeSimulatorOptions = {}): Promise<IdeSimulator> {
  const simulator = await startIdeSimulator({ port: 0, untrustedOrigins: 'accept', ...options });
  started.push(simulator);
  return simulator;
}

/** Whether a request is still waiting after a moment in which any answer would have arrived. */
async function isStillWaiting(answer: Promise<RawAnswer>): Promise<boolean> {
  const pending = Symbol('pending');
  const moment = new Promise((resolve) => setTimeout(() => resolve(pending), 200));
  return (await Promise.race([answer, moment])) === pending;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((simulator) => simulator.close()));
});

describe('product information', () => {
  it('answers /api/installPlugin without plugin ids with the name and the build number with its code', async () => {
    const ide = await start({ name: 'PyCharm 2025.2', buildNumber: 'PY-252.23892.410' });
    const answer = await get(`${ide.url}/api/installPlugin`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ name: 'PyCharm 2025.2', buildNumber: 'PY-252.23892.410' });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers['x-frame-options']).toBe('Deny');
    const unknownAction = await get(`${ide.url}/api/installPlugin?action=uninstall&pluginId=a`);
    expect(JSON.parse(unknownAction.body)).toEqual({
      name: 'PyCharm 2025.2',
      buildNumber: 'PY-252.23892.410',
    });
  });

  it('answers /api/about without the product code, and adds details with ?more only for local pages', async () => {
    const ide = await start();
    expect(JSON.parse((await get(`${ide.url}/api/about`)).body)).toEqual({
      name: 'IntelliJ IDEA 2025.2',
      productName: 'IDEA',
      baselineVersion: 252,
      buildNumber: '252.23892.409',
    });
    const local = JSON.parse(
      (await get(`${ide.url}/api/about?more`, { Origin: 'http://localhost:3000' })).body,
    );
    expect(local).toMatchObject({ productCode: 'IU', vendor: 'JetBrains s.r.o.', isEAP: false });
    const remote = JSON.parse(
      (await get(`${ide.url}/api/about?more`, { Origin: 'https://example.com' })).body,
    );
    expect(remote).not.toHaveProperty('productCode');
  });

  it('refuses a Host header that does not name localhost (DNS rebinding)', async () => {
    const ide = await start();
    expect((await get(`${ide.url}/api/about`, { Host: 'attacker.example:63342' })).status).toBe(403);
    expect((await get(`${ide.url}/api/about`, { Host: `localhost:${ide.port}` })).status).toBe(200);
  });

  it('answers only GET and HEAD, and 404 outside its services', async () => {
    const ide = await start();
    const post = await get(`${ide.url}/api/installPlugin`, {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const head = await get(`${ide.url}/api/installPlugin`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect((await get(`${ide.url}/api/unknownService`)).status).toBe(404);
    expect((await get(`${ide.url}/index.html`)).status).toBe(404);
  });
});

describe('CORS', () => {
  it('allows the calling origin with credentials on every answer, errors included', async () => {
    const ide = await start({ rateLimitPerMinute: 1, trustedHosts: ['marketplace.example.com'] });
    const origin = 'https://marketplace.example.com';
    const ok = await get(`${ide.url}/api/installPlugin`, { Origin: origin });
    expect(ok.headers['access-control-allow-origin']).toBe(origin);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    const limited = await get(`${ide.url}/api/installPlugin`, { Origin: origin });
    expect(limited.status).toBe(429);
    expect(limited.headers['access-control-allow-origin']).toBe(origin);
  });

  it('answers a preflight for GET', async () => {
    const ide = await start();
    const preflight = await get(
      `${ide.url}/api/installPlugin`,
      { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET' },
      'OPTIONS',
    );
    expect(preflight.status).toBe(200);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://a.example');
    expect(preflight.headers['access-control-allow-methods']).toContain('GET');
  });
});

describe('checkCompatibility', () => {
  const plugins = { 'com.example.good': true, 'com.example.old': false };

  it('answers one plugin id with {compatible}, and {} for an id it has never heard of', async () => {
    const ide = await start({ plugins });
    const check = async (id: string) =>
      JSON.parse((await get(`${ide.url}/api/installPlugin?action=checkCompatibility&pluginId=${id}`)).body);
    expect(await check('com.example.good')).toEqual({ compatible: true });
    expect(await check('com.example.old')).toEqual({ compatible: false });
    expect(await check('com.example.unknown')).toEqual({});
  });

  it('answers a JSON array of ids with a map, leaving unknown ids out', async () => {
    const ide = await start({ plugins });
    const ids = encodeURIComponent(
      JSON.stringify(['com.example.good', 'com.example.old', 'com.example.unknown']),
    );
    const answer = await get(`${ide.url}/api/installPlugin?action=checkCompatibility&pluginIds=${ids}`);
    expect(JSON.parse(answer.body)).toEqual({ 'com.example.good': true, 'com.example.old': false });
  });

  it('says what is wrong when pluginIds is not a JSON array of ids', async () => {
    const ide = await start({ plugins });
    for (const bad of ['not-json', '{"a":1}', '[]', '[1]']) {
      const answer = await get(
        `${ide.url}/api/installPlugin?action=checkCompatibility&pluginIds=${encodeURIComponent(bad)}`,
      );
      expect(answer.status, bad).toBe(400);
      expect(answer.body).toContain('JSON array');
    }
  });
});

describe('install', () => {
  it('answers 200 at once and ignores further installs while one is running', async () => {
    const clock = manualClock();
    const ide = await start({ now: clock.now, installDurationMs: 2_000 });
    const install = (id: string) => get(`${ide.url}/api/installPlugin?action=install&pluginId=${id}`);
    expect((await install('com.example.first')).status).toBe(200);
    clock.advance(1_000);
    expect((await install('com.example.second')).status).toBe(200);
    expect(ide.installedPluginIds()).toEqual([]);
    clock.advance(1_000);
    expect(ide.installedPluginIds()).toEqual(['com.example.first']);
    expect((await install('com.example.third')).status).toBe(200);
    clock.advance(2_000);
    expect(ide.installedPluginIds().sort()).toEqual(['com.example.first', 'com.example.third']);
    expect(ide.requests.map((request) => request.ignored ?? false)).toEqual([false, true, false]);
  });

  it('installs every id of a pluginIds array', async () => {
    const clock = manualClock();
    const ide = await start({ now: clock.now, installDurationMs: 0 });
    const ids = encodeURIComponent(JSON.stringify(['a.one', 'a.two']));
    expect((await get(`${ide.url}/api/installPlugin?action=install&pluginIds=${ids}`)).status).toBe(200);
    expect(ide.installedPluginIds().sort()).toEqual(['a.one', 'a.two']);
  });
});

describe('origin trust', () => {
  const installPath = '/api/installPlugin?action=install&pluginId=com.example.tool';

  it('serves localhost pages over any scheme, and listed hosts over https, without asking', async () => {
    const ide = await start({ untrustedOrigins: 'ask', trustedHosts: ['marketplace.example.com'] });
    for (const origin of [
      'http://localhost:8080',
      'http://127.0.0.1:5173',
      'https://localhost:8443',
      'https://plugins.jetbrains.com',
      'https://marketplace.example.com',
    ]) {
      expect((await get(`${ide.url}${installPath}`, { Origin: origin })).status, origin).toBe(200);
    }
    expect(ide.pendingConfirmations()).toEqual([]);
  });

  it('asks about a listed host served over plain http, like any other host', async () => {
    const ide = await start({ untrustedOrigins: 'ask', trustedHosts: ['marketplace.example.com'] });
    const answer = get(`${ide.url}${installPath}`, { Origin: 'http://marketplace.example.com' });
    await expect
      .poll(() => ide.pendingConfirmations().map((question) => question.host))
      .toEqual(['marketplace.example.com']);
    expect(await isStillWaiting(answer)).toBe(true);
    ide.confirmPending(false);
    expect((await answer).status).toBe(403);
  });

  it('by default holds every /api/installPlugin request of another page until the question is answered', async () => {
    const clock = manualClock();
    const ide = await startIdeSimulator({ port: 0, now: clock.now, installDurationMs: 0 });
    started.push(ide);
    const page = { Origin: 'https://blog.example.org' };
    const install = get(`${ide.url}${installPath}`, page);
    await expect
      .poll(() => ide.pendingConfirmations())
      .toEqual([
        { id: 1, host: 'blog.example.org', page: 'https://blog.example.org', since: clock.now(), waiting: 1 },
      ]);
    // Looking waits too, for the same question: the IDE asks about the page once.
    const productInfo = get(`${ide.url}/api/installPlugin`, page);
    await expect.poll(() => ide.pendingConfirmations()[0]?.waiting).toBe(2);
    expect(await isStillWaiting(install)).toBe(true);
    expect(ide.installedPluginIds()).toEqual([]);

    expect(ide.confirmPending(true)).toMatchObject({ id: 1, host: 'blog.example.org', waiting: 2 });
    expect((await install).status).toBe(200);
    expect((await productInfo).status).toBe(200);
    expect(ide.installedPluginIds()).toEqual(['com.example.tool']);
    expect(ide.requests.map((request) => request.askedToTrust)).toEqual([true, true]);

    // The answer is remembered for a day, for that scheme and host.
    expect((await get(`${ide.url}/api/installPlugin`, page)).status).toBe(200);
    clock.advance(TRUST_ANSWER_REMEMBERED_MS);
    const dayLater = get(`${ide.url}/api/installPlugin`, page);
    await expect.poll(() => ide.pendingConfirmations()).toHaveLength(1);
    ide.confirmPending(true);
    expect((await dayLater).status).toBe(200);
  });

  it('answers 403 to every request waiting on a refused question, and refuses that page at once afterwards', async () => {
    const ide = await start({ untrustedOrigins: 'ask' });
    const page = { Origin: 'http://blog.example.org' };
    const waiting = [get(`${ide.url}${installPath}`, page), get(`${ide.url}${installPath}`, page)];
    await expect.poll(() => ide.pendingConfirmations()[0]?.waiting).toBe(2);
    ide.confirmPending(false);
    expect((await Promise.all(waiting)).map((answer) => answer.status)).toEqual([403, 403]);
    expect((await get(`${ide.url}/api/installPlugin`, page)).status).toBe(403);
    expect(ide.pendingConfirmations()).toEqual([]);
    expect(ide.installedPluginIds()).toEqual([]);
  });

  it('asks every time about a request that names no page, and answers a question chosen by id', async () => {
    const ide = await start({ untrustedOrigins: 'ask' });
    const first = get(`${ide.url}/api/installPlugin`);
    const second = get(`${ide.url}/api/installPlugin`, { Origin: 'null' });
    await expect.poll(() => ide.pendingConfirmations()).toHaveLength(2);
    const [unknownHost, opaque] = ide.pendingConfirmations();
    expect(unknownHost).toMatchObject({ host: undefined, page: undefined });
    expect(opaque).toMatchObject({ host: undefined, page: 'null' });
    ide.confirmPending(true, opaque?.id);
    expect((await second).status).toBe(200);
    expect(await isStillWaiting(first)).toBe(true);
    ide.confirmPending(true);
    expect((await first).status).toBe(200);
    const again = get(`${ide.url}/api/installPlugin`);
    await expect.poll(() => ide.pendingConfirmations()).toHaveLength(1);
    expect(ide.confirmPending(false, 999)).toBeUndefined();
    ide.confirmPending(false);
    expect((await again).status).toBe(403);
  });

  it('lists and answers the questions over HTTP, on a path the IDE does not have', async () => {
    const ide = await start({ untrustedOrigins: 'ask' });
    const control = `${ide.url}${CONFIRMATIONS_PATH}`;
    expect((await get(`${control}?answer=yes`, {}, 'POST')).status).toBe(404);
    const install = get(`${ide.url}${installPath}`, { Origin: 'https://courses.example.edu' });
    await expect.poll(() => ide.pendingConfirmations()).toHaveLength(1);
    const listed = await get(control, { Origin: 'http://localhost:3000' });
    expect(listed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(JSON.parse(listed.body)).toEqual([expect.objectContaining({ host: 'courses.example.edu' })]);
    expect((await get(`${control}?answer=maybe`, {}, 'POST')).status).toBe(400);
    const answered = await get(`${control}?answer=yes`, {}, 'POST');
    expect(JSON.parse(answered.body)).toMatchObject({ host: 'courses.example.edu', waiting: 1 });
    expect((await install).status).toBe(200);
    expect(ide.requests.map((request) => request.path)).toEqual(['/api/installPlugin']);
  });

  it('refuses other pages with 403 when told to, looking included; /api/about needs no trust', async () => {
    const ide = await start({ untrustedOrigins: 'refuse', trustedHosts: ['marketplace.example.com'] });
    for (const origin of ['http://marketplace.example.com', 'https://evil.example', 'null']) {
      const answer = await get(`${ide.url}${installPath}`, { Origin: origin });
      expect(answer.status, origin).toBe(403);
    }
    expect((await get(`${ide.url}${installPath}`)).status).toBe(403);
    const evil = { Origin: 'https://evil.example' };
    expect((await get(`${ide.url}/api/installPlugin`, evil)).status).toBe(403);
    expect((await get(`${ide.url}/api/about`, evil)).status).toBe(200);
  });

  it('trusts the Referer when a page on localhost sends no Origin', async () => {
    const ide = await start({ untrustedOrigins: 'refuse' });
    expect(
      (await get(`${ide.url}${installPath}`, { Referer: 'http://localhost:3000/plugin/1' })).status,
    ).toBe(200);
  });

  it('accepts other pages at once, as if the user said yes, when told to', async () => {
    const ide = await start({ untrustedOrigins: 'accept' });
    expect((await get(`${ide.url}${installPath}`, { Origin: 'https://evil.example' })).status).toBe(200);
    expect(ide.pendingConfirmations()).toEqual([]);
  });

  it('stops asking when it closes', async () => {
    const ide = await startIdeSimulator({ port: 0 });
    const waiting = get(`${ide.url}${installPath}`, { Origin: 'https://blog.example.org' });
    await expect.poll(() => ide.pendingConfirmations()).toHaveLength(1);
    await ide.close();
    await expect(waiting).rejects.toThrow();
    expect(ide.pendingConfirmations()).toEqual([]);
  });
});

describe('rate limit', () => {
  it('answers 429 past 30 requests a minute by default, and again after the minute', async () => {
    const clock = manualClock();
    const ide = await start({ now: clock.now });
    for (let index = 0; index < 30; index++) {
      expect((await get(`${ide.url}/api/installPlugin`)).status).toBe(200);
    }
    expect((await get(`${ide.url}/api/installPlugin`)).status).toBe(429);
    expect((await get(`${ide.url}/api/about`)).status).toBe(429);
    clock.advance(60_000);
    expect((await get(`${ide.url}/api/installPlugin`)).status).toBe(200);
  });

  it('takes another limit, and Infinity turns it off', async () => {
    const limited = await start({ rateLimitPerMinute: 2 });
    const statuses = [];
    for (let index = 0; index < 3; index++) statuses.push((await get(`${limited.url}/api/about`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    const unlimited = await start({ rateLimitPerMinute: Number.POSITIVE_INFINITY });
    for (let index = 0; index < 40; index++) {
      expect((await get(`${unlimited.url}/api/about`)).status).toBe(200);
    }
  });
});

describe('EduTools', () => {
  it('has no course services while EduTools is missing, and gets them a delay after installing it', async () => {
    const clock = manualClock();
    const ide = await start({ now: clock.now, eduTools: { installed: false, appearsAfterInstallMs: 5_000 } });
    expect((await get(`${ide.url}/api/edu/marketplace/info`)).status).toBe(404);
    const install = await get(`${ide.url}/api/installPlugin?action=install&pluginId=com.jetbrains.edu`);
    expect(install.status).toBe(200);
    clock.advance(4_999);
    expect((await get(`${ide.url}/api/edu/marketplace/info`)).status).toBe(404);
    clock.advance(1);
    const info = await get(`${ide.url}/api/edu/marketplace/info`);
    expect(info.status).toBe(200);
    expect(info.headers['content-type']).toMatch(/^text\/html/);
    expect(JSON.parse(info.body)).toEqual({ version: '2025.2', edutools: '2025.10' });
    expect(ide.installedPluginIds()).toContain('com.jetbrains.edu');
  });

  it('never gets EduTools when the visitor cancels the install', async () => {
    const clock = manualClock();
    const ide = await start({ now: clock.now, eduTools: { installed: false, appearsAfterInstallMs: null } });
    await get(`${ide.url}/api/installPlugin?action=install&pluginId=com.jetbrains.edu`);
    clock.advance(600_000);
    expect((await get(`${ide.url}/api/edu/marketplace/info`)).status).toBe(404);
  });

  it('opens courses it knows, 404 for others, 400 Unknown command without a course id', async () => {
    const ide = await start({ eduTools: { installed: true, version: '2025.9' }, courseIds: [10081] });
    expect((await get(`${ide.url}/api/edu/marketplace?course_id=10081`)).status).toBe(200);
    expect((await get(`${ide.url}/api/edu/marketplace?course_id=777`)).status).toBe(404);
    const unknown = await get(`${ide.url}/api/edu/marketplace?course=1`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toBe('Unknown command');
    expect((await get(`${ide.url}/api/edu/lti?marketplace_course_id=10081&launch_id=abc`)).status).toBe(200);
    expect((await get(`${ide.url}/api/edu/lti?marketplace_course_id=5`)).status).toBe(404);
    expect((await get(`${ide.url}/api/edu/lti`)).status).toBe(400);
    expect(JSON.parse((await get(`${ide.url}/api/edu/marketplace/info`)).body).edutools).toBe('2025.9');
  });

  it('refuses to open a course for a page it does not trust when told to', async () => {
    const ide = await start({ eduTools: { installed: true }, untrustedOrigins: 'refuse' });
    const url = `${ide.url}/api/edu/marketplace?course_id=1`;
    expect((await get(url, { Origin: 'https://courses.example' })).status).toBe(403);
    expect((await get(url, { Origin: 'http://localhost:8080' })).status).toBe(200);
  });
});

describe('received requests', () => {
  it('records every request and serves the list on a path the IDE does not have', async () => {
    const ide = await start();
    await get(`${ide.url}/api/installPlugin?action=checkCompatibility&pluginId=x`, {
      Origin: 'http://localhost:1',
    });
    await get(`${ide.url}/api/nothing`);
    const listed = await get(`${ide.url}${RECEIVED_REQUESTS_PATH}`, { Origin: 'http://localhost:1' });
    expect(listed.headers['access-control-allow-origin']).toBe('http://localhost:1');
    expect(JSON.parse(listed.body)).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/api/installPlugin',
        query: { action: 'checkCompatibility', pluginId: 'x' },
        origin: 'http://localhost:1',
        status: 200,
      }),
      expect.objectContaining({ path: '/api/nothing', status: 404 }),
    ]);
    ide.clearRequests();
    expect(ide.requests).toEqual([]);
  });
});

describe('starting', () => {
  it('says so when the port is taken', async () => {
    const first = await start();
    await expect(startIdeSimulator({ port: first.port })).rejects.toThrow(`port ${first.port}`);
  });

  it('rejects options it cannot honour, naming them', async () => {
    await expect(startIdeSimulator({ port: 0, buildNumber: '252.1' })).rejects.toThrow(/build number/);
    await expect(startIdeSimulator({ port: 0, rateLimitPerMinute: 0 })).rejects.toThrow(/rateLimitPerMinute/);
    await expect(startIdeSimulator({ port: 0, trustedHosts: ['https://x.example'] })).rejects.toThrow(
      /trusted hosts/,
    );
    await expect(startIdeSimulator({ port: 70000 })).rejects.toThrow(/port/);
  });

  it('closes its connections so that close() does not wait for idle sockets', async () => {
    const ide = await startIdeSimulator({ port: 0 });
    await fetch(`${ide.url}/api/about`);
    await ide.close();
    await expect(fetch(`${ide.url}/api/about`)).rejects.toThrow();
  });
});
