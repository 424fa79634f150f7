export * from './common';
export * from './errors';
export * from './ide';
export * from './moderation';
export * from './plugins';
export * from './search';
export * from './social';
export * from './statistics';
export type * from './entity-checks';
