import { LAUNCH_IDE_HINT, OPEN_COURSE, productsForCourseLanguage } from '@marketplace/core';
import { startIdeSimulator } from '@marketplace/ide-simulator';
import type { IdeSimulator } from '@marketplace/ide-simulator';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PAGE_HOST, launchChromium, openPage } from '../support/browser';
import { findDemoItems } from '../support/catalogue';
import type { CatalogueItem } from '../support/catalogue';
import { startTestHttpServer } from '../support/http-server';
import type { RunningHttpServer } from '../support/http-server';
import { startMarketplace } from '../support/marketplace-server';
import type { RunningMarketplace } from '../support/marketplace-server';
import { examplesDir } from '../support/paths';

/** The LMS course page (examples/lms-course): an LTI launch and a self-study button for one course. */
describe('the LMS course example page', () => {
  let marketplace: RunningMarketplace;
  let examples: RunningHttpServer;
  let browser: Browser;
  let course: CatalogueItem;
  /** A build number of an IDE that can open the course's language. */
  let courseIdeBuild: string;
  let ide: IdeSimulator | undefined;

  beforeAll(async () => {
    marketplace = await startMarketplace();
    examples = await startTestHttpServer({ mounts: [{ prefix: '/examples/', dir: examplesDir }] });
    browser = await launchChromium();
    ({ course } = await findDemoItems(marketplace.origin));
    const served = (await (await fetch(`${marketplace.origin}/api/plugins/${course.id}`)).json()) as {
      programmingLanguage: string | null;
    };
    const product = productsForCourseLanguage(served.programmingLanguage ?? '')[0];
    if (!product)
      throw new Error(`Course ${course.id} has no language an IDE can open: ${served.programmingLanguage}`);
    courseIdeBuild = `${product.code}-252.23892.409`;
  });

  afterAll(async () => {
    await browser?.close();
    await examples?.close();
    await marketplace?.close();
  });

  afterEach(async () => {
    await ide?.close();
    ide = undefined;
  });

  const pageUrl = () =>
    `http://${HOST_PAGE_HOST}:${examples.port}/examples/lms-course/?${new URLSearchParams({
      marketplace: marketplace.origin,
      course: String(course.id),
    })}`;

  it("opens the course in the IDE with the LMS launch's details", async () => {
    ide = await startIdeSimulator({
      port: 63342,
      buildNumber: courseIdeBuild,
      eduTools: { installed: true },
      // The IDE trusts a listed host only over https; this page is plain http, so the IDE asks its user
      // about it, who says yes at once here.
      untrustedOrigins: 'accept',
    });
    const { page, errors } = await openPage(browser);
    await page.goto(pageUrl());
    await page.locator('mp-course-lti').getByRole('button', { name: OPEN_COURSE }).click();
    const simulator = ide;
    await expect
      .poll(() => simulator.requests.find((request) => request.path === '/api/edu/lti'), { timeout: 30_000 })
      .toMatchObject({
        status: 200,
        query: {
          marketplace_course_id: String(course.id),
          launch_id: 'lti-launch-2f6c1a',
          study_item_id: 'lesson-3-task-1',
          lms_description: 'Introduction to Kotlin, week 3',
        },
      });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('asks to launch an IDE when none is running', async () => {
    const { page } = await openPage(browser);
    await page.goto(pageUrl());
    const selfStudy = page.locator('mp-open-course');
    const button = selfStudy.getByRole('button', { name: OPEN_COURSE });
    await selfStudy.getByText(LAUNCH_IDE_HINT).waitFor();
    expect(await button.isDisabled()).toBe(true);
    await page.context().close();
  });
});
