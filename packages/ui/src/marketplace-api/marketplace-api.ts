import type { DownloadStatisticPoint, Plugin } from '@marketplace/core';
import { formatStatisticsDate, STATISTICS_MAX_DAYS } from '@marketplace/core';

/**
 * The few reads the components make from the marketplace API, in one place so the typed API client can
 * replace them. Every function takes the API's base address (e.g. https://plugins.example.com) because
 * embedded components run on other sites.
 */

export class MarketplaceApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'MarketplaceApiError';
  }
}

function endpoint(apiBase: string, path: string, query?: Record<string, string>): string {
  const url = new URL(path, apiBase.endsWith('/') ? apiBase : `${apiBase}/`);
  for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
  return url.toString();
}

async function getJson(url: string, signal?: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'omit', signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new MarketplaceApiError('The marketplace could not be reached.', undefined);
  }
  if (!response.ok) {
    throw new MarketplaceApiError(
      `The marketplace answered ${response.status} ${response.statusText}.`.trim(),
      response.status,
    );
  }
  return response.json();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** GET /api/plugins/{id}: the item in its default shape. */
export async function fetchPlugin(apiBase: string, pluginId: number, signal?: AbortSignal): Promise<Plugin> {
  const body = await getJson(endpoint(apiBase, `api/plugins/${encodeURIComponent(pluginId)}`), signal);
  if (!isRecord(body) || !isRecord(body.info) || typeof body.id !== 'number') {
    throw new MarketplaceApiError(
      'The marketplace sent an item in a shape this page does not understand.',
      undefined,
    );
  }
  return body as unknown as Plugin;
}

/**
 * GET /api/search/updates/nearest: whether the item with this XML id has a stable version that installs into
 * the IDE with this build (the marketplace's own rule, the one its feed for the IDE applies).
 */
export async function hasCompatibleVersion(
  apiBase: string,
  build: string,
  pluginXmlId: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const query = { build, pluginXMLIds: pluginXmlId };
  const body = await getJson(endpoint(apiBase, 'api/search/updates/nearest', query), signal);
  return isRecord(body) && isRecord(body[pluginXmlId]);
}

/** The days of the download chart: the last STATISTICS_MAX_DAYS days up to and including `today` (UTC). */
export function statisticsRange(today: Date): { startDate: string; endDate: string } {
  const start = new Date(today.getTime() - (STATISTICS_MAX_DAYS - 1) * 24 * 60 * 60 * 1000);
  return { startDate: formatStatisticsDate(start), endDate: formatStatisticsDate(today) };
}

/** GET downloads-count/day for the last 30 days, days without downloads included as 0. */
export async function fetchDailyDownloads(
  apiBase: string,
  pluginId: number,
  today: Date,
  signal?: AbortSignal,
): Promise<DownloadStatisticPoint[]> {
  const query = { plugin: String(pluginId), ...statisticsRange(today), fill: 'full' };
  const body = await getJson(endpoint(apiBase, 'statistic/downloads-count/day', query), signal);
  if (!isRecord(body) || !Array.isArray(body.data)) {
    throw new MarketplaceApiError(
      'The marketplace sent statistics in a shape this page does not understand.',
      undefined,
    );
  }
  return body.data.filter(
    (point): point is DownloadStatisticPoint =>
      isRecord(point) && typeof point.name === 'string' && typeof point.value === 'number',
  );
}
