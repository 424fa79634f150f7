import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createMemoryIdeBridge, SAMPLE_IDES } from '../ide/memory-ide-bridge';
import { canOpenCourse, CourseLtiButton, OpenCourseButton } from './CourseButton';

describe('course buttons', () => {
  it('are disabled with a hint while no IDE for the course language runs', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.goland] });
    render(<OpenCourseButton courseId={7} language="Python" bridge={bridge} />);
    const hint = await screen.findByText('Please launch your IDE and refresh the page');
    const button = screen.getByRole('button', { name: 'Open course' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe(hint.id);
  });

  it('open the course in a running IDE that supports its language', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.goland, SAMPLE_IDES.pycharm] });
    render(<OpenCourseButton courseId={7} language="Python" bridge={bridge} />);
    // Once the running IDEs are known, the button names the one it opens (before that a click looks for them).
    const button = await screen.findByTitle('Open course - PyCharm 2025.2');
    await userEvent.click(button);
    expect(bridge.calls).toContain(`course 7@${SAMPLE_IDES.pycharm.port}`);
  });

  it('open an LMS launch with the LTI call', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea] });
    render(
      <CourseLtiButton
        launch={{ marketplaceCourseId: 99, launchId: 'abc' }}
        language="JAVA"
        bridge={bridge}
      />,
    );
    const button = await screen.findByRole('button', { name: 'Open course' });
    await screen.findByTitle('Open course - IntelliJ IDEA 2025.2');
    await userEvent.click(button);
    expect(bridge.calls).toContain(`lti 99@${SAMPLE_IDES.idea.port}`);
  });

  it('tell the visitor when the course could not be opened', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.idea], openCourse: 'fail' });
    render(<OpenCourseButton courseId={7} language="kotlin" bridge={bridge} />);
    await userEvent.click(await screen.findByTitle('Open course - IntelliJ IDEA 2025.2'));
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong');
  });

  it('match IDEs to course languages by product code', () => {
    expect(canOpenCourse(SAMPLE_IDES.goland, 'go')).toBe(true);
    expect(canOpenCourse(SAMPLE_IDES.goland, 'Python')).toBe(false);
    expect(canOpenCourse({ ...SAMPLE_IDES.idea, buildNumber: '252.1' }, 'JAVA')).toBe(false);
  });

  it('look for the IDE only when clicked, when the browser would ask the visitor first', async () => {
    const bridge = createMemoryIdeBridge({ ides: [SAMPLE_IDES.pycharm], localNetworkAccess: 'prompt' });
    render(<OpenCourseButton courseId={7} language="Python" bridge={bridge} />);
    const button = (await screen.findByRole('button', { name: 'Open course' })) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    expect(screen.queryByText('Please launch your IDE and refresh the page')).toBeNull();
    await userEvent.click(button);
    await waitFor(() =>
      expect(bridge.calls).toEqual(['find after a click', `course 7@${SAMPLE_IDES.pycharm.port}`]),
    );
  });
});
