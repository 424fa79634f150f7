import { defineElement } from '../shared/define-element';
import { MpOpenCourse, OPEN_COURSE_TAG } from './mp-open-course';

/** Registers <mp-open-course>; harmless when it is already registered. */
export function defineOpenCourse(): void {
  defineElement(OPEN_COURSE_TAG, MpOpenCourse);
}
