export * from './measures';
export * from './ide-client';
