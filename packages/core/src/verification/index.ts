export * from './platform-releases';
export * from './class-file';
export * from './problems';
