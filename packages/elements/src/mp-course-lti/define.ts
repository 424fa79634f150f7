import { defineElement } from '../shared/define-element';
import { MpCourseLti, COURSE_LTI_TAG } from './mp-course-lti';

/** Registers <mp-course-lti>; harmless when it is already registered. */
export function defineCourseLti(): void {
  defineElement(COURSE_LTI_TAG, MpCourseLti);
}
