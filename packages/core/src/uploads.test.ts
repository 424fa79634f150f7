import { describe, expect, it } from 'vitest';
import type { UploadResult } from './entities';
import { isUploadFailure, screenshotsToUpload, tagsForUpdate } from './uploads';

describe('upload results', () => {
  it('fail when the errors list is not empty', () => {
    expect(isUploadFailure({ errors: ['Plugin id is taken'] })).toBe(true);
  });

  it('pass with warnings only, or with nothing to report', () => {
    const warned: UploadResult = { errors: [], warnings: ['Deprecated API used'], isErrorUnknown: false };
    expect(isUploadFailure(warned)).toBe(false);
    expect(isUploadFailure({ errors: [] })).toBe(false);
  });
});

describe('screenshot upload', () => {
  it('sends only the screenshots that carry a file and were not removed', () => {
    const newFile = { name: 'new.png' };
    const kept = { url: 'https://example.com/old.png' };
    const added = { url: 'blob:1', file: newFile };
    const addedThenRemoved = { url: 'blob:2', file: { name: 'gone.png' }, deleted: true };
    expect(screenshotsToUpload([kept, added, addedThenRemoved])).toEqual([added]);
    expect(screenshotsToUpload([])).toEqual([]);
  });
});

describe('tags update', () => {
  it('sends every tag as a string', () => {
    expect(tagsForUpdate([164, 'Editor', { id: 216 }])).toEqual(['164', 'Editor', '216']);
    expect(tagsForUpdate([])).toEqual([]);
  });
});
