import { expect, it } from 'vitest';
import { IDE_PORT_START } from './constants';

it('starts the IDE port scan at 63342', () => {
  expect(IDE_PORT_START).toBe(63342);
});
