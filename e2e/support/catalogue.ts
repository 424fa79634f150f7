/** Items of the demo catalogue the tests use, found through the public API rather than assumed. */
export interface CatalogueItem {
  id: number;
  xmlId: string;
  name: string;
}

interface SearchAnswer {
  plugins: { id: number; xmlId: string; name: string }[];
}

async function firstItem(origin: string, query: Record<string, string>): Promise<CatalogueItem> {
  const url = new URL('/api/searchPlugins', origin);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  url.searchParams.set('max', '1');
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.href} answered ${response.status}: ${await response.text()}`);
  const answer = (await response.json()) as SearchAnswer;
  const item = answer.plugins[0];
  if (!item) throw new Error(`The demo catalogue has no item for ${url.search}.`);
  return { id: item.id, xmlId: item.xmlId, name: item.name };
}

export interface DemoItems {
  plugin: CatalogueItem;
  ai: CatalogueItem;
  course: CatalogueItem;
}

export async function findDemoItems(origin: string): Promise<DemoItems> {
  const [plugin, ai, course] = await Promise.all([
    firstItem(origin, { family: 'intellij', orderBy: 'downloads' }),
    firstItem(origin, { family: 'intellij', tags: 'AI-Powered', orderBy: 'downloads' }),
    firstItem(origin, { family: 'edu', orderBy: 'downloads' }),
  ]);
  return { plugin, ai, course };
}
