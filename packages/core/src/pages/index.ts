export * from './limits';
export * from './page-url';
export * from './tree';
export * from './toc';
