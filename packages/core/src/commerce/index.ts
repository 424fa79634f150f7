export * from './money';
export * from './terms';
export * from './quote';
export * from './offers';
