import { defineAiButton } from './mp-ai-button/define';
import { defineCourseLti } from './mp-course-lti/define';
import { defineInstallButton } from './mp-install-button/define';
import { defineOpenCourse } from './mp-open-course/define';
import { definePluginCard } from './mp-plugin-card/define';

/** Registers every element of the SDK; each registration is harmless when the element already exists. */
export function defineMarketplaceElements(): void {
  definePluginCard();
  defineInstallButton();
  defineAiButton();
  defineOpenCourse();
  defineCourseLti();
}
