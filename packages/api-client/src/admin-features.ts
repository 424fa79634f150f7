import type {
  FeatureFlag,
  FeatureFlagChange,
  FeatureGroups,
  FeatureStatistic,
  FeatureUsage,
  MyFeatures,
  NewFeatureFlag,
} from '@marketplace/api-contract';
import type { FeatureType } from '@marketplace/core';
import { buildQuery } from './query';
import type { ApiTransport, CallOptions } from './transport';

export type {
  FeatureFlag,
  FeatureFlagChange,
  FeatureGroups,
  FeatureStatistic,
  FeatureUsage,
  MyFeatures,
  NewFeatureFlag,
};

const BASE = '/api/features';

/** A flag's name in a path: checked on the server, only encoded here. */
const named = (name: string) => `${BASE}/${encodeURIComponent(name)}`;

/** The paths of spec §7's feature-flag routes. */
export const featurePaths = {
  list: (type?: FeatureType) => `${BASE}${buildQuery({ type })}`,
  search: (query: string, type?: FeatureType) => `${BASE}/search${buildQuery({ query, type })}`,
  groupByTypes: () => `${BASE}/group-by-types`,
  statistic: () => `${BASE}/statistic`,
  mine: (browser?: string) => `${BASE}/mine${buildQuery({ browser })}`,
  flag: named,
};

/**
 * Feature flags: administrators list, search, group, create, change and delete them and read their usage;
 * anyone reads the flags as they apply to themselves (`mine`). Bad input rejects with ApiError 400 and a
 * message (a value not of the flag's type, a percentage outside 0..100, an unknown login or vendor, a name
 * taken).
 */
export class FeaturesClient {
  constructor(private readonly transport: ApiTransport) {}

  private get<T>(path: string, options: CallOptions): Promise<T> {
    return this.transport.sendJson<T>({ ...options, method: 'GET', path });
  }

  /** Every flag as it applies to the asker; a browser id keeps percentages sticky for a guest. */
  mine(browser?: string, options: CallOptions = {}): Promise<MyFeatures> {
    return this.get(featurePaths.mine(browser), options);
  }

  list(type?: FeatureType, options: CallOptions = {}): Promise<FeatureFlag[]> {
    return this.get(featurePaths.list(type), options);
  }

  search(query: string, type?: FeatureType, options: CallOptions = {}): Promise<FeatureFlag[]> {
    return this.get(featurePaths.search(query, type), options);
  }

  groupByTypes(options: CallOptions = {}): Promise<FeatureGroups> {
    return this.get(featurePaths.groupByTypes(), options);
  }

  statistic(options: CallOptions = {}): Promise<FeatureStatistic> {
    return this.get(featurePaths.statistic(), options);
  }

  flag(name: string, options: CallOptions = {}): Promise<FeatureFlag> {
    return this.get(featurePaths.flag(name), options);
  }

  create(flag: NewFeatureFlag, options: CallOptions = {}): Promise<FeatureFlag> {
    return this.transport.sendJson({ ...options, method: 'POST', path: BASE, json: flag });
  }

  change(name: string, change: FeatureFlagChange, options: CallOptions = {}): Promise<FeatureFlag> {
    return this.transport.sendJson({
      ...options,
      method: 'PUT',
      path: featurePaths.flag(name),
      json: change,
    });
  }

  async remove(name: string, reason?: string, options: CallOptions = {}): Promise<void> {
    await this.transport.send({
      ...options,
      method: 'DELETE',
      path: `${featurePaths.flag(name)}${buildQuery({ reason })}`,
    });
  }
}
