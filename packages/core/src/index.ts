export * from './constants';
export * from './families';
export * from './enums';
export * from './products';
export * from './build-number';
