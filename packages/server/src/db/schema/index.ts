export * from './catalogue';
export * from './auth';
export * from './publishing';
export * from './commerce';
export * from './insight';
export * from './insight-exceptions';
export * from './pages';
export * from './verification';
