import { SORT_ORDERS } from '@marketplace/core';

/** Realistic searches: words people type (some misspelt), filters and every sort order. */
export function searchPaths(): string[] {
  const texts = [
    'git',
    'docker',
    'kotlin',
    'python test',
    'database',
    'dark theme',
    'markdown',
    'kubernetes',
    'spring',
    'rust',
    'dokcer',
    'kotln',
    'code style',
    'terraform',
    'ai',
    'jest',
    'gradle',
    'sql',
    'vim',
    'github',
  ];
  const orders = SORT_ORDERS;
  const filters = [
    '',
    '&payment=free',
    '&products=IDEA',
    '&tags=Database',
    '&family=intellij',
    '&payment=paid',
  ];
  const paths: string[] = [];
  texts.forEach((text, index) => {
    const order = orders[index % orders.length] as string;
    const filter = filters[index % filters.length] as string;
    paths.push(
      `/api/searchPlugins?search=${encodeURIComponent(text)}&orderBy=${encodeURIComponent(order)}${filter}&max=20`,
    );
  });
  orders.forEach((order, index) => {
    const filter = filters[index % filters.length] as string;
    paths.push(
      `/api/searchPlugins?orderBy=${encodeURIComponent(order)}${filter}&max=20&offset=${(index % 3) * 20}`,
    );
  });
  return paths;
}
