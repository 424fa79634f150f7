export * from './catalogue';
export * from './auth';
export * from './publishing';
