export * from './measures';
export * from './ide-client';
export * from './stack-trace';
export * from './exceptions';
