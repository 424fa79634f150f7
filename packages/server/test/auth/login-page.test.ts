import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, buildAuthTestApp, startSignIn, type AuthTestApp } from './auth-test-app';

let testApp: AuthTestApp;

beforeAll(async () => {
  testApp = await buildAuthTestApp();
  await addUser(testApp, 'lena', { password: 'lena-password' });
}, 60_000);

afterAll(async () => {
  await testApp.close();
});

function postForm(url: string, cookie: string, form: Record<string, string>) {
  return testApp.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

describe('the login page', () => {
  it('asks for both fields and keeps what was typed, escaped', async () => {
    const { loginPath, cookie } = await startSignIn(testApp);
    const empty = await postForm(`${loginPath}/login`, cookie, { login: '', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter your login and password.');

    const hostile = await postForm(`${loginPath}/login`, cookie, {
      login: '"><script>alert(1)</script>',
      password: 'whatever-password',
    });
    expect(hostile.statusCode).toBe(401);
    expect(hostile.body).not.toContain('<script>alert(1)</script>');
    expect(hostile.body).toContain('value="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"');
  });

  it('says the sign-in expired for an unknown or foreign interaction', async () => {
    const unknown = await testApp.app.inject({ url: '/oidc/interaction/not-a-real-one' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('This sign-in page has expired or was already used.');
    const { cookie } = await startSignIn(testApp);
    const foreign = await postForm('/oidc/interaction/someone-elses/login', cookie, {
      login: 'lena',
      password: 'lena-password',
    });
    expect(foreign.statusCode).toBe(400);
  });

  it('sends the visitor back to the site with access_denied on Cancel', async () => {
    const { loginPath, cookie } = await startSignIn(testApp);
    const cancelled = await postForm(`${loginPath}/abort`, cookie, {});
    expect(cancelled.statusCode).toBe(303);
    const resume = new URL(String(cancelled.headers.location), testApp.config.publicUrl);
    const resumeCookies = [cookie, ...cancelled.cookies.map((entry) => `${entry.name}=${entry.value}`)].join(
      '; ',
    );
    const back = await testApp.app.inject({
      url: resume.pathname + resume.search,
      headers: { cookie: resumeCookies },
    });
    expect(back.statusCode).toBe(303);
    const callback = new URL(String(back.headers.location));
    expect(callback.pathname).toBe('/auth/callback');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('abc');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('cannot be framed by another site', async () => {
    const { loginPath, cookie } = await startSignIn(testApp);
    const page = await testApp.app.inject({ url: loginPath, headers: { cookie } });
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
  });
});
