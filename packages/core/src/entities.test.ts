import { expect, it } from 'vitest';
import { SEARCH_RESULT_KINDS } from './entities';

it('keeps search results for plugins, themes and the mixed search apart', () => {
  expect(SEARCH_RESULT_KINDS).toEqual(['plugins', 'themes', 'any']);
});
