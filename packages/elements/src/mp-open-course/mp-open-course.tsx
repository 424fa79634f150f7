import { COURSE_BUTTON_STYLES, OpenCourseButton } from '@marketplace/ui';
import { LoadedItem } from '../shared/loaded-item';
import { pageIdeBridge } from '../shared/page-ide-bridge';
import type { WidgetViewProps } from '../shared/widget-element';
import { createWidgetElement } from '../shared/widget-element';

export const OPEN_COURSE_TAG = 'mp-open-course';

export interface OpenCourseAttributes {
  pluginId?: string;
  apiBase?: string;
}

function OpenCourseView({ pluginId, apiBase, host, emit }: OpenCourseAttributes & WidgetViewProps) {
  return (
    <LoadedItem elementName={OPEN_COURSE_TAG} pluginId={pluginId} apiBase={apiBase} host={host} emit={emit}>
      {(course, context) => (
        <OpenCourseButton
          courseId={context.pluginId}
          language={course.programmingLanguage ?? ''}
          bridge={pageIdeBridge()}
        />
      )}
    </LoadedItem>
  );
}

/**
 * Opens an educational course in an IDE running on the visitor's machine that supports the course's
 * language, installing the course plugin first when needed. Without such an IDE: a disabled 'Open course'
 * button with the hint 'Please launch your IDE and refresh the page'.
 *
 * @tag mp-open-course
 * @attr {string} plugin-id - The course's numeric id on the marketplace.
 * @attr {string} api-base - The marketplace's address. Default: the origin the SDK script was loaded from.
 * @attr {boolean} post-to-parent - Inside a frame, also post the protocol events to the framing page.
 * @event embed:item-data - The course loaded. `detail.item`.
 * @event embed:error - The item could not be loaded, or plugin-id names no item: the element renders nothing. `detail.pluginId`, `detail.status` (HTTP status, 0 without an answer), `detail.message`. Inside a frame also posted to the framing page.
 * @event embed:size - The button's size changed. `detail.width`, `detail.height` in CSS pixels.
 * @csspart base - The box around the button and its hint.
 * @cssproperty --mp-accent - The button colour.
 */
export const MpOpenCourse = createWidgetElement<OpenCourseAttributes>(OpenCourseView, {
  uiStyles: COURSE_BUTTON_STYLES,
  attributes: { pluginId: 'string', apiBase: 'string' },
});
