import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage } from '../support/browser';
import { zipArchive } from './support/plugin-archive';
import { startSiteServer } from './support/site-server';
import type { SiteServer } from './support/site-server';
import { getJson, signIn } from './support/site-pages';

const POLL = { timeout: 30_000, interval: 200 };

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const MARKDOWN = [
  '# Getting started',
  '',
  'Welcome. <script>window.__pwned = "script"</script>',
  '',
  '<img src="x" onerror="window.__pwned = \'onerror\'">',
  '',
  '## Install',
  '',
  'Open the IDE.',
  '',
  '## Configure',
  '',
  'Set it up.',
  '',
].join('\n');

/** A webhelp whose script tries to reach what belongs to the marketplace and writes what it got. */
const SPY_PAGE = `<!doctype html>
<html><head><title>Manual</title></head><body>
<h1>Manual</h1>
<pre id="result">pending</pre>
<script>
(async () => {
  const out = { origin: String(window.origin) };
  try { out.cookie = document.cookie; } catch (error) { out.cookie = 'blocked: ' + error.name; }
  try { out.storage = JSON.stringify(Object.keys(localStorage)) + JSON.stringify(Object.keys(sessionStorage)); }
  catch (error) { out.storage = 'blocked: ' + error.name; }
  try {
    const response = await fetch('/api/users/me', { credentials: 'include' });
    out.me = response.status + ' ' + (await response.text()).slice(0, 200);
  } catch (error) { out.me = 'blocked: ' + error.name; }
  document.getElementById('result').textContent = JSON.stringify(out);
})();
</script>
</body></html>`;

describe('custom pages and webhelp in Chromium', () => {
  let server: SiteServer;
  let browser: Browser;
  let token = '';
  let pluginId = 0;

  beforeAll(async () => {
    server = await startSiteServer();
    browser = await launchChromium();
    token = server.createToken('developer', 'manage');
    const me = await getJson<{ id: number }>(server.origin, '/api/users/me', token);
    const [mine] = await getJson<{ id: number }[]>(
      server.origin,
      `/api/users/${me.id}/plugins?size=1`,
      token,
    );
    if (!mine) throw new Error('The demo developer has no plugin.');
    pluginId = mine.id;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lets the vendor write a page with an image and a table of contents, and a visitor read it without its scripts', async () => {
    const vendor = await openPage(browser);
    try {
      const page = vendor.page;
      await page.goto(`${server.origin}/dashboard/plugin/${pluginId}/custom-pages`);
      await signIn(page, 'developer', server.passwords.developer);
      await page.getByLabel('New page name').fill('Getting started');
      await page.getByRole('button', { name: 'Add page' }).click();
      const markdown = page.getByRole('textbox', { name: 'Markdown' });
      await markdown.waitFor(POLL);
      await markdown.fill(MARKDOWN);
      await page.getByLabel('Table of contents from the headings').check();
      await page
        .getByLabel('Add an image (PNG, JPEG, GIF or WebP)')
        .setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: PNG });
      await page.waitForFunction(
        () =>
          (document.querySelector('textarea[name=page-markdown]') as HTMLTextAreaElement).value.includes(
            '![screenshot](',
          ),
        undefined,
        POLL,
      );
      // The live preview: the server's renderer, the table of contents, no script.
      const preview = page.getByRole('region', { name: 'Preview' });
      await preview.getByRole('link', { name: 'Configure' }).waitFor(POLL);
      await preview.getByRole('heading', { name: 'Install' }).waitFor(POLL);
      await preview.locator('img[src*="/images/"]').waitFor(POLL);

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Page saved').first().waitFor(POLL);
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.getByRole('button', { name: 'Unpublish', exact: true }).waitFor(POLL);
      expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
      expect(vendor.errors).toEqual([]);
    } finally {
      await vendor.context.close();
    }

    const visitor = await openPage(browser);
    try {
      const page = visitor.page;
      await page.goto(`${server.origin}/plugin/${pluginId}`);
      await page.getByRole('link', { name: 'Custom pages', exact: true }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/custom-pages'));
      await page.getByRole('link', { name: 'Getting started' }).first().click();
      await page.waitForURL((url) => url.pathname.endsWith('/custom-pages/getting-started'));
      // On the page's own URL the tab stays highlighted.
      const tab = page
        .getByRole('navigation', { name: /sections$/ })
        .getByRole('link', { name: 'Custom pages', exact: true });
      expect(await tab.getAttribute('aria-current')).toBe('page');
      expect(await tab.getAttribute('class')).toMatch(/\bactive\b/);
      const toc = page.getByRole('navigation', { name: 'Table of contents' });
      await toc.getByRole('link', { name: 'Install' }).waitFor(POLL);
      await toc.getByRole('link', { name: 'Configure' }).click();
      await page.waitForURL((url) => url.hash === '#section-configure');
      await page.getByRole('heading', { name: 'Configure' }).waitFor(POLL);

      const image = page.locator('.site-prose img[src*="/images/"]');
      await image.waitFor(POLL);
      await page.waitForFunction(
        () => {
          const element = document.querySelector(
            '.site-prose img[src*="/images/"]',
          ) as HTMLImageElement | null;
          return element !== null && element.complete && element.naturalWidth === 1;
        },
        undefined,
        POLL,
      );
      expect(await page.locator('.site-prose script, .site-prose [onerror]').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
      expect(visitor.errors).toEqual([]);
    } finally {
      await visitor.context.close();
    }
  });

  it('keeps visitors on the published page while the vendor edits, previews and publishes a draft', async () => {
    const pageUrl = `${server.origin}/plugin/${pluginId}/custom-pages/getting-started`;
    const visitor = await openPage(browser);
    const vendor = await openPage(browser);
    try {
      const reader = visitor.page;
      const page = vendor.page;
      page.on('dialog', (dialog) => void dialog.accept());
      await page.goto(`${server.origin}/dashboard/plugin/${pluginId}/custom-pages`);
      await signIn(page, 'developer', server.passwords.developer);
      await page
        .getByRole('list', { name: 'Pages' })
        .getByRole('button', { name: 'Getting started', exact: true })
        .click();
      const markdown = page.getByRole('textbox', { name: 'Markdown' });
      await markdown.waitFor(POLL);

      // An image uploaded by mistake is deleted from the editor, and from the Markdown.
      await page.getByLabel('Add an image (PNG, JPEG, GIF or WebP)').setInputFiles({
        name: 'mistake.png',
        mimeType: 'image/png',
        buffer: Buffer.concat([PNG, Buffer.from('x')]),
      });
      await page.getByRole('button', { name: 'Delete image mistake.png' }).click();
      await page.getByText('Image deleted').first().waitFor(POLL);
      await page
        .getByRole('button', { name: 'Delete image mistake.png' })
        .waitFor({ state: 'detached', ...POLL });
      expect(await markdown.inputValue()).not.toContain('![mistake]');

      await markdown.fill(`${await markdown.inputValue()}\n## Troubleshooting\n\nRestart the IDE.\n`);
      const preview = page.getByRole('region', { name: 'Preview' });
      await preview.getByRole('heading', { name: 'Troubleshooting' }).waitFor(POLL);
      await page.getByRole('button', { name: 'Save draft', exact: true }).click();
      await page.getByRole('status', { name: 'Draft' }).waitFor(POLL);
      await page.getByText('Unpublished changes').first().waitFor(POLL);
      // The saved draft is what the editor shows and previews again.
      await page
        .getByRole('region', { name: 'Preview' })
        .getByRole('heading', { name: 'Troubleshooting' })
        .waitFor(POLL);

      // Visitors still read the published version.
      await reader.goto(pageUrl);
      await reader.getByRole('heading', { name: 'Configure' }).waitFor(POLL);
      expect(await reader.getByRole('heading', { name: 'Troubleshooting' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Publish changes', exact: true }).click();
      await page.getByText('Changes published').first().waitFor(POLL);
      await page.getByRole('status', { name: 'Draft' }).waitFor({ state: 'detached', ...POLL });

      await reader.reload();
      await reader.getByRole('heading', { name: 'Troubleshooting' }).waitFor(POLL);
      await reader
        .getByRole('navigation', { name: 'Table of contents' })
        .getByRole('link', { name: 'Troubleshooting' })
        .waitFor(POLL);

      // A draft can be thrown away: visitors never see it.
      await markdown.fill(`${await markdown.inputValue()}\n## Abandoned\n`);
      await page.getByRole('button', { name: 'Save draft', exact: true }).click();
      await page.getByRole('status', { name: 'Draft' }).waitFor(POLL);
      await page.getByRole('button', { name: 'Discard changes', exact: true }).click();
      await page.getByText('Changes discarded').first().waitFor(POLL);
      await page.getByRole('status', { name: 'Draft' }).waitFor({ state: 'detached', ...POLL });
      expect(await markdown.inputValue()).not.toContain('Abandoned');
      await reader.reload();
      await reader.getByRole('heading', { name: 'Troubleshooting' }).waitFor(POLL);
      expect(await reader.getByRole('heading', { name: 'Abandoned' }).count()).toBe(0);
      expect(vendor.errors).toEqual([]);
      expect(visitor.errors).toEqual([]);
    } finally {
      await vendor.context.close();
      await visitor.context.close();
    }
  });

  it('serves a webhelp zip whose script gets none of the marketplace’s cookies, storage or API', async () => {
    const headers = { authorization: `Bearer ${token}` };
    const base = `${server.origin}/api/plugins/${pluginId}/custom-pages`;
    const created = await fetch(base, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Manual', type: 'webhelp' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(zipArchive({ 'index.html': SPY_PAGE, 'topics/more.html': '<h1>More</h1>' }))]),
      'manual.zip',
    );
    const uploaded = await fetch(`${base}/${id}/webhelp`, { method: 'PUT', headers, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);

    // Before publishing, the vendor previews it: the same sandbox, and nobody else gets in.
    expect((await fetch(`${server.origin}/webhelp/${pluginId}/manual/`)).status).toBe(404);
    const minted = await fetch(`${base}/${id}/webhelp/preview`, { method: 'POST', headers });
    expect(minted.status).toBe(200);
    const { url: previewUrl } = (await minted.json()) as { url: string };
    const previewer = await openPage(browser);
    try {
      await previewer.context.addCookies([
        { name: 'mp_secret', value: 'top-secret-cookie', url: server.origin, sameSite: 'Lax' },
      ]);
      await previewer.page.goto(new URL(previewUrl, server.origin).href);
      await previewer.page.waitForFunction(
        () => document.getElementById('result')?.textContent !== 'pending',
        undefined,
        POLL,
      );
      const report = JSON.parse(await previewer.page.locator('#result').innerText()) as Record<
        string,
        string
      >;
      expect(report.origin).toBe('null');
      expect(report.cookie).toMatch(/^blocked: SecurityError$/);
      expect(report.me).toMatch(/^blocked: TypeError$/);
    } finally {
      await previewer.context.close();
    }
    const stranger = await fetch(`${server.origin}/webhelp/preview/${'A'.repeat(43)}/`);
    expect(stranger.status).toBe(404);

    const published = await fetch(`${base}/${id}/publish`, { method: 'POST', headers });
    expect(published.status).toBe(200);

    const visitor = await openPage(browser);
    try {
      const page = visitor.page;
      // A signed-in visitor, with a cookie of the marketplace's own.
      await visitor.context.addCookies([
        { name: 'mp_secret', value: 'top-secret-cookie', url: server.origin, sameSite: 'Lax' },
      ]);
      await page.goto(`${server.origin}/plugin/${pluginId}/custom-pages/manual`);
      await signIn(page, 'developer', server.passwords.developer);
      expect(await page.evaluate(() => document.cookie)).toContain('top-secret-cookie');
      const [webhelp] = await Promise.all([
        visitor.context.waitForEvent('page'),
        page.getByRole('link', { name: 'Open the documentation' }).click(),
      ]);
      await webhelp.waitForURL((url) => url.pathname === `/webhelp/${pluginId}/manual/`);
      const result = webhelp.locator('#result');
      await webhelp.waitForFunction(
        () => document.getElementById('result')?.textContent !== 'pending',
        undefined,
        POLL,
      );
      const report = JSON.parse(await result.innerText()) as Record<string, string>;
      // The script ran, in an opaque origin: no cookie, no storage, and the API is out of its reach.
      expect(report.origin).toBe('null');
      expect(report.cookie).toMatch(/^blocked: SecurityError$/);
      expect(report.storage).toMatch(/^blocked: SecurityError$/);
      expect(report.me).toMatch(/^blocked: TypeError$/);
      expect(JSON.stringify(report)).not.toContain('top-secret-cookie');
      expect(JSON.stringify(report)).not.toContain('developer');

      const response = await fetch(`${server.origin}/webhelp/${pluginId}/manual/topics/more.html`);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toMatch(/sandbox allow-scripts allow-popups$/);
    } finally {
      await visitor.context.close();
    }
  });
});
