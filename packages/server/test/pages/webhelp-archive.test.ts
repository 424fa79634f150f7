import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import type { CustomPageBody } from '@marketplace/api-contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readWebhelpArchive, webhelpContentType, type WebhelpLimits } from '../../src/pages';
import { deflatedEntry, storedEntry, unicodePathExtraField, type RawEntry } from '../archive/zip-writer';
import { createReviewsTestApp, type ReviewsTestApp } from '../reviews/reviews-test-app';
import { addPeople, addPlugin, json, rowCount, uploadRequest, webhelpZip } from './pages-fixture';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/*
 * Webhelp zips go through the plugin uploads' archive rules (src/archive): hostile archives are refused with
 * a message before a single file is handed on to be stored.
 */

const UNIX_SYMBOLIC_LINK = 0o120777;
const MEGABYTE = 1024 * 1024;

interface Hostile {
  name: string;
  zip: () => Buffer;
  error: RegExp;
  limits?: Partial<WebhelpLimits>;
}

const HOSTILE: readonly Hostile[] = [
  {
    name: 'zip slip with ../',
    zip: () => webhelpZip([storedEntry('../../../home/user/.bashrc', 'curl evil | sh')]),
    error: /contains an unsafe path: the entry '..\/..\/..\/home\/user\/.bashrc' climbs out of its folder/,
  },
  {
    name: 'an absolute path',
    zip: () => webhelpZip([storedEntry('/etc/cron.d/evil', '* * * * * root sh')]),
    error: /contains an unsafe path: the entry '\/etc\/cron.d\/evil' has an absolute path/,
  },
  {
    name: 'a drive letter',
    zip: () => webhelpZip([storedEntry('C:/Windows/evil.dll', 'MZ')]),
    error: /starts with a drive letter/,
  },
  {
    name: 'backslashes',
    zip: () => webhelpZip([storedEntry('..\\..\\evil.bat', 'del')]),
    error: /contains a backslash/,
  },
  {
    name: 'a slip behind a clean Unicode Path extra field',
    zip: () =>
      webhelpZip([
        storedEntry('../../evil.sh', 'rm -rf ~', {
          extraField: unicodePathExtraField('../../evil.sh', 'docs/evil.sh'),
        }),
      ]),
    error: /climbs out of its folder/,
  },
  {
    name: 'another name in the local header',
    zip: () => webhelpZip([storedEntry('topics/aaaaaa.html', 'x', { localName: '../../evil.sh' })]),
    error: /is forged: the entry 'topics\/aaaaaa.html' carries another name/,
  },
  {
    name: 'a symbolic link',
    zip: () =>
      webhelpZip([
        storedEntry('topics/passwd.html', '/etc/passwd', { externalAttributes: UNIX_SYMBOLIC_LINK << 16 }),
      ]),
    error: /contains a symbolic link, 'topics\/passwd.html'/,
  },
  {
    name: 'a duplicate name',
    zip: () => webhelpZip([storedEntry('app.js', 'alert(1)')]),
    error: /lists the entry 'app.js' twice/,
  },
  {
    name: 'a size header that lies',
    zip: () =>
      webhelpZip([
        deflatedEntry('big.txt', 'a'.repeat(10_000), { uncompressedSize: 10, localUncompressedSize: 10 }),
      ]),
    error: /forged|damaged/,
  },
  {
    name: 'a bad CRC',
    zip: () => webhelpZip([storedEntry('topics/crc.html', 'hello', { crc32: 1234 })]),
    error: /fails its CRC-32 check|damaged/,
  },
  {
    name: 'a zip bomb past the unpacked limit',
    zip: () => {
      const zeros = Buffer.alloc(4 * MEGABYTE);
      const bomb: RawEntry = {
        name: 'bomb.bin',
        data: deflateRawSync(zeros, { level: 9 }),
        method: 8,
        crc32: crc32(zeros),
        uncompressedSize: zeros.length,
      };
      return webhelpZip([bomb, { ...bomb, name: 'bomb2.bin' }, { ...bomb, name: 'bomb3.bin' }]);
    },
    limits: { maxUnpackedBytes: 10 * MEGABYTE },
    error: /would decompress to more than 10 MB, the most a webhelp may unpack to/,
  },
  {
    name: 'one file past the per-file limit',
    zip: () => webhelpZip([deflatedEntry('search.json', 'x'.repeat(2 * MEGABYTE))]),
    limits: { maxFileBytes: MEGABYTE },
    error: /holds 'search.json' of 2 MB; one file may be at most 1 MB/,
  },
  {
    name: 'too many entries',
    zip: () => webhelpZip(Array.from({ length: 20 }, (_, index) => storedEntry(`topics/${index}.html`, 'x'))),
    limits: { maxEntries: 10 },
    error: /has more than 10 entries/,
  },
  {
    name: 'no index.html',
    zip: () => webhelpZip([], { index: false }),
    error: /has no index.html at its root/,
  },
  {
    name: 'not a zip at all',
    zip: () => Buffer.from('<html>not a zip</html>'),
    error: /is not a zip or jar archive|cannot be read/,
  },
];

describe('reading a webhelp zip', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mp-webhelp-'));
  });
  afterAll(async () => rm(folder, { recursive: true, force: true }));

  async function read(bytes: Buffer, limits?: Partial<WebhelpLimits>) {
    const path = join(folder, `archive-${Math.random().toString(16).slice(2)}.zip`);
    await writeFile(path, bytes);
    const handed: string[] = [];
    const result = await readWebhelpArchive(path, async (file) => void handed.push(file.path), limits);
    return { handed, result };
  }

  it.each(HOSTILE.map((hostile) => [hostile.name, hostile] as const))(
    'refuses %s before handing on any file',
    async (_name, hostile) => {
      const handed: string[] = [];
      const path = join(folder, `${hostile.name.replace(/\W+/g, '-')}.zip`);
      await writeFile(path, hostile.zip());
      await expect(
        readWebhelpArchive(path, async (file) => void handed.push(file.path), hostile.limits),
      ).rejects.toThrow(hostile.error);
      expect(handed).toEqual([]);
    },
  );

  it('hands on every file below the root, without folders or macOS litter', async () => {
    const { handed, result } = await read(
      webhelpZip([storedEntry('__MACOSX/docs/._index.html', 'x'), storedEntry('docs/', '')], {
        folder: 'docs',
      }),
    );
    expect(handed.sort()).toEqual(['app.js', 'index.html', 'styles/site.css', 'topics/install.html']);
    expect(result.files).toBe(4);
  });

  it('serves files with content types by extension', () => {
    expect(webhelpContentType('index.html')).toBe('text/html; charset=utf-8');
    expect(webhelpContentType('a/b.JS')).toBe('text/javascript; charset=utf-8');
    expect(webhelpContentType('img/logo.svg')).toBe('image/svg+xml');
    expect(webhelpContentType('data.bin')).toBe('application/octet-stream');
    expect(webhelpContentType('Makefile')).toBe('application/octet-stream');
  });
});

describe('uploading a hostile webhelp zip', () => {
  let t: ReviewsTestApp;
  let owner: number;
  let pluginId: number;
  let pageUrl: string;

  beforeAll(async () => {
    t = await createReviewsTestApp({ catalogue: false });
    owner = (await addPeople(t)).owner;
    pluginId = await addPlugin(t, owner);
    const page = json<CustomPageBody>(
      await t.call(owner, {
        method: 'POST',
        url: `/api/plugins/${pluginId}/custom-pages`,
        payload: { name: 'Docs', type: 'webhelp' },
      }),
    );
    pageUrl = `/api/plugins/${pluginId}/custom-pages/${page.id}`;
  });
  afterAll(async () => t?.close());

  it('answers 400 with the archive rule’s message and stores nothing', async () => {
    for (const hostile of HOSTILE.filter((entry) => entry.limits === undefined)) {
      const response = await t.call(
        owner,
        uploadRequest(`${pageUrl}/webhelp`, { name: 'docs.zip', content: hostile.zip() }, 'PUT'),
      );
      expect(response.statusCode, hostile.name).toBe(400);
      expect(json<{ message: string }>(response).message, hostile.name).toMatch(hostile.error);
    }
    expect(await rowCount(t, 'custom_page_files', pluginId)).toBe(0);
    const [claims] = (await t.db.execute('SELECT count(*)::int AS n FROM file_claims' as never)).rows as {
      n: number;
    }[];
    expect(Number(claims?.n)).toBe(0);
  });

  it('keeps the previous webhelp when a new upload is refused', async () => {
    const good = await t.call(
      owner,
      uploadRequest(`${pageUrl}/webhelp`, { name: 'docs.zip', content: webhelpZip() }, 'PUT'),
    );
    expect(good.statusCode, good.body).toBe(200);
    const bad = await t.call(
      owner,
      uploadRequest(
        `${pageUrl}/webhelp`,
        { name: 'docs.zip', content: webhelpZip([storedEntry('../x', 'x')]) },
        'PUT',
      ),
    );
    expect(bad.statusCode).toBe(400);
    expect(await rowCount(t, 'custom_page_files', pluginId)).toBe(4);
  });

  it('answers 413 for a zip over the size limit', async () => {
    const response = await t.call(
      owner,
      uploadRequest(
        `${pageUrl}/webhelp`,
        { name: 'docs.zip', content: Buffer.alloc(50 * MEGABYTE + 10) },
        'PUT',
      ),
    );
    expect(response.statusCode).toBe(413);
    expect(json<{ message: string }>(response).message).toMatch(/larger than 50 MB/);
  });
});
