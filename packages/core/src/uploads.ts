/**
 * Upload rules of spec §5 that do not depend on how the upload travels.
 */
import type { EditableScreenshot, UploadResult } from './entities';

/** An upload failed when its answer lists any error; warnings alone are reported but let it through. */
export function isUploadFailure(result: Pick<UploadResult, 'errors'>): boolean {
  return result.errors.length > 0;
}

/** Only screenshots that carry a new file are sent to the screenshot upload; removed ones never are. */
export function screenshotsToUpload<UploadFile>(
  screenshots: readonly EditableScreenshot<UploadFile>[],
): (EditableScreenshot<UploadFile> & { file: UploadFile })[] {
  return screenshots.filter(
    (screenshot): screenshot is EditableScreenshot<UploadFile> & { file: UploadFile } =>
      screenshot.file != null && screenshot.deleted !== true,
  );
}

/** The tags update sends every tag, id or name, as a string. */
export function tagsForUpdate(tags: readonly (string | number | { id: number })[]): string[] {
  return tags.map((tag) => (typeof tag === 'object' ? String(tag.id) : String(tag)));
}
