import { COURSE_BUTTON_STYLES, CourseLtiButton } from '@marketplace/ui';
import { LoadedItem } from '../shared/loaded-item';
import { pageIdeBridge } from '../shared/page-ide-bridge';
import type { WidgetViewProps } from '../shared/widget-element';
import { createWidgetElement } from '../shared/widget-element';

export const COURSE_LTI_TAG = 'mp-course-lti';

export interface CourseLtiAttributes {
  pluginId?: string;
  apiBase?: string;
  launchId?: string;
  studyItemId?: string;
  lmsDescription?: string;
}

/** Optional LTI fields are passed on only when the LMS filled them in. */
function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function CourseLtiView({
  pluginId,
  apiBase,
  launchId,
  studyItemId,
  lmsDescription,
  host,
  emit,
}: CourseLtiAttributes & WidgetViewProps) {
  return (
    <LoadedItem elementName={COURSE_LTI_TAG} pluginId={pluginId} apiBase={apiBase} host={host} emit={emit}>
      {(course, context) => (
        <CourseLtiButton
          launch={{
            marketplaceCourseId: context.pluginId,
            launchId: present(launchId),
            studyItemId: present(studyItemId),
            lmsDescription: present(lmsDescription),
          }}
          language={course.programmingLanguage ?? ''}
          bridge={pageIdeBridge()}
        />
      )}
    </LoadedItem>
  );
}

/**
 * The open-course button for a course launched from a learning management system (LTI): opens the course in
 * the visitor's IDE with the launch's details, so the IDE can report progress back to the LMS.
 *
 * @tag mp-course-lti
 * @attr {string} plugin-id - The course's numeric id on the marketplace (marketplace_course_id).
 * @attr {string} api-base - The marketplace's address. Default: the origin the SDK script was loaded from.
 * @attr {string} launch-id - The LMS launch id, passed to the IDE.
 * @attr {string} study-item-id - The task or lesson to open, passed to the IDE.
 * @attr {string} lms-description - The LMS's description of the assignment, passed to the IDE.
 * @attr {boolean} post-to-parent - Inside a frame, also post the protocol events to the framing page.
 * @event embed:item-data - The course loaded. `detail.item`.
 * @event embed:error - The item could not be loaded, or plugin-id names no item: the element renders nothing. `detail.pluginId`, `detail.status` (HTTP status, 0 without an answer), `detail.message`. Inside a frame also posted to the framing page.
 * @event embed:size - The button's size changed. `detail.width`, `detail.height` in CSS pixels.
 * @csspart base - The box around the button and its hint.
 * @cssproperty --mp-accent - The button colour.
 */
export const MpCourseLti = createWidgetElement<CourseLtiAttributes>(CourseLtiView, {
  uiStyles: COURSE_BUTTON_STYLES,
  attributes: {
    pluginId: 'string',
    apiBase: 'string',
    launchId: 'string',
    studyItemId: 'string',
    lmsDescription: 'string',
  },
});
