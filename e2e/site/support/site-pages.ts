import type { Page } from 'playwright-core';

/** Signs in through the site's Sign in button and the identity service's login form; back on the same page. */
export async function signIn(page: Page, login: string, password: string): Promise<void> {
  const before = new URL(page.url());
  await page.getByRole('button', { name: 'Sign in', exact: true }).first().click();
  await page.waitForURL(/\/oidc\//);
  await page.fill('#login', login);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
  await page.waitForURL((url) => url.pathname === before.pathname, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 30_000 });
}

/** Answers of the API, read in Node (not through the page). */
export async function getJson<T>(origin: string, path: string, token?: string): Promise<T> {
  const get = () =>
    fetch(new URL(path, origin), {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  // A kept-alive connection the server closes just as a request goes out fails with "other side closed";
  // a GET is safe to send once more on a new connection.
  const response = await get().catch(() => get());
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}
