import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { isCompatibleByMarketplace, pluginRepositoryUrl } from './item-compatibility';

const idea = { name: 'IntelliJ IDEA 2025.2', buildNumber: 'IU-252.23892.409', port: 63342 };
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A marketplace whose `updates/nearest` answers with `answer` (a status and a body), counting the questions. */
async function marketplace(answer: () => [number, unknown]) {
  const asked: string[] = [];
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET') asked.push(`${url.pathname}?${url.searchParams.toString()}`);
    const [status, body] = request.method === 'OPTIONS' ? [204, undefined] : answer();
    response.writeHead(status, {
      'Content-Type': 'application/json',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'accept',
    });
    response.end(request.method === 'OPTIONS' ? undefined : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, asked };
}

describe("this marketplace's own compatibility answer", () => {
  it('asks the marketplace once per IDE build and plugin, and holds when it names a version', async () => {
    const { url, asked } = await marketplace(() => [
      200,
      { 'a.tool': { xmlId: 'a.tool', id: 1, version: '1' } },
    ]);
    expect(await isCompatibleByMarketplace(idea, 'a.tool', url)).toBe(true);
    expect(await isCompatibleByMarketplace(idea, 'a.tool', url)).toBe(true);
    expect(await isCompatibleByMarketplace(idea, 'b.other', url)).toBe(false);
    expect(asked).toEqual([
      '/api/search/updates/nearest?build=IU-252.23892.409&pluginXMLIds=a.tool',
      '/api/search/updates/nearest?build=IU-252.23892.409&pluginXMLIds=b.other',
    ]);
  });

  it('does not hold when the marketplace cannot answer, and asks again next time', async () => {
    let status = 500;
    const { url, asked } = await marketplace(() => [status, { 'a.tool': {} }]);
    expect(await isCompatibleByMarketplace(idea, 'a.tool', url)).toBe(false);
    status = 200;
    expect(await isCompatibleByMarketplace(idea, 'a.tool', url)).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it("gives the marketplace's feed address for the IDE's plugin repositories", () => {
    expect(pluginRepositoryUrl('https://plugins.example.com')).toBe(
      'https://plugins.example.com/plugins/list',
    );
    expect(pluginRepositoryUrl('https://example.com/marketplace/')).toBe(
      'https://example.com/marketplace/plugins/list',
    );
  });
});
