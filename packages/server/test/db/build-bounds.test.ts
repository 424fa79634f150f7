import { BUILD_WILDCARD } from '@marketplace/core';
import { describe, expect, it } from 'vitest';
import { buildBoundColumns, InvalidBuildNumberError } from '../../src/db/catalogue-queries';

describe('the stored build bounds of a version', () => {
  it('keeps since and until as their components, and an open until as null', () => {
    expect(buildBoundColumns('241.14494', '243.*')).toEqual({
      sinceComponents: [241, 14494],
      untilComponents: [243, BUILD_WILDCARD],
    });
    expect(buildBoundColumns('241', '')).toEqual({ sinceComponents: [241, 0], untilComponents: null });
  });

  it('reads an explicit large until such as 145.9999 as 145.*, as the IDE does', () => {
    expect(buildBoundColumns('131', '145.9999').untilComponents).toEqual([145, BUILD_WILDCARD]);
    expect(buildBoundColumns('241', '241.14494').untilComponents).toEqual([241, 14494]);
  });

  it('refuses bounds that are not build numbers', () => {
    expect(() => buildBoundColumns('latest', null)).toThrow(InvalidBuildNumberError);
    expect(() => buildBoundColumns('241', 'soon')).toThrow(InvalidBuildNumberError);
  });
});
