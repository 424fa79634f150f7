import type { RunningIde } from '@marketplace/core';
import {
  LAUNCH_IDE_HINT,
  OPEN_COURSE,
  productKeyFromBuildNumber,
  productKeysForCourseLanguage,
  SOMETHING_WENT_WRONG,
  TRY_AGAIN,
} from '@marketplace/core';
import { useId, useMemo, useState } from 'react';
import type { LtiLaunch } from '@marketplace/ide-bridge';
import type { IdeBridge } from '../ide/ide-bridge';
import { useIdeBridge } from '../ide/ide-bridge';
import { CONFIRM_IN_IDE } from '../ide/use-plugin-install';
import { useRunningIdes } from '../ide/use-running-ides';
import { useToasts } from '../toast/toast-context';
import { ToastProvider } from '../toast/ToastProvider';

interface CourseButtonBaseProps {
  /** The course's programming language; decides which IDEs can open it. */
  language: string;
  bridge?: IdeBridge;
}

export interface OpenCourseButtonProps extends CourseButtonBaseProps {
  courseId: number;
}

export interface CourseLtiButtonProps extends CourseButtonBaseProps {
  launch: LtiLaunch;
}

/** True when the running IDE is one of the products that can open courses in this language. */
export function canOpenCourse(ide: RunningIde, language: string): boolean {
  const key = productKeyFromBuildNumber(ide.buildNumber);
  return key !== undefined && productKeysForCourseLanguage(language).includes(key);
}

function CourseButtonContent({
  language,
  bridge: bridgeProp,
  open,
  variant,
}: CourseButtonBaseProps & {
  open: (bridge: IdeBridge, ide: RunningIde) => Promise<void>;
  variant: 'ide' | 'lti';
}) {
  const bridge = useIdeBridge(bridgeProp);
  const toasts = useToasts();
  const hintId = useId();
  const filter = useMemo(() => (ide: RunningIde) => canOpenCourse(ide, language), [language]);
  const { state, lookNow } = useRunningIdes(bridge, { filter });
  const [opening, setOpening] = useState(false);
  const ide = state.ides[0];
  const classes = `mp-course${variant === 'lti' ? ' mp-course--lti' : ''}`;

  const openIn = async (target: RunningIde) => {
    setOpening(true);
    try {
      await open(bridge, target);
    } catch {
      toasts?.show({ kind: 'error', title: SOMETHING_WENT_WRONG, message: TRY_AGAIN });
    } finally {
      setOpening(false);
    }
  };

  if (state.status === 'pending' || state.status === 'awaiting-confirmation') {
    return (
      <span className={classes}>
        <button type="button" className="mp-button" disabled aria-busy="true">
          <span className="mp-spinner" aria-hidden="true" />
          {state.status === 'pending' ? OPEN_COURSE : CONFIRM_IN_IDE}
        </button>
      </span>
    );
  }

  if (state.status === 'awaiting-gesture') {
    // The browser asks the visitor before the page may look for IDEs: look when they ask to open the course.
    const lookThenOpen = async () => {
      const [first] = await lookNow();
      if (first !== undefined) await openIn(first);
    };
    return (
      <span className={classes}>
        <button type="button" className="mp-button" onClick={() => void lookThenOpen()}>
          {OPEN_COURSE}
        </button>
      </span>
    );
  }

  if (ide === undefined) {
    return (
      <span className={classes}>
        <button type="button" className="mp-button" disabled aria-describedby={hintId}>
          {OPEN_COURSE}
        </button>
        <p className="mp-course__hint" id={hintId}>
          {LAUNCH_IDE_HINT}
        </p>
      </span>
    );
  }

  const onClick = () => openIn(ide);

  return (
    <span className={classes}>
      <button
        type="button"
        className="mp-button"
        title={`${OPEN_COURSE} - ${ide.name}`}
        aria-busy={opening || undefined}
        disabled={opening}
        onClick={() => void onClick()}
      >
        {opening ? <span className="mp-spinner" aria-hidden="true" /> : null}
        {OPEN_COURSE}
      </button>
    </span>
  );
}

function WithToasts({ children }: { children: React.ReactNode }) {
  return useToasts() ? <>{children}</> : <ToastProvider>{children}</ToastProvider>;
}

/** Opens an educational course in a running IDE that supports its language. */
export function OpenCourseButton({ courseId, ...rest }: OpenCourseButtonProps) {
  return (
    <WithToasts>
      <CourseButtonContent {...rest} variant="ide" open={(bridge, ide) => bridge.openCourse(ide, courseId)} />
    </WithToasts>
  );
}

/** The same for a course launched from a learning management system (LTI), styled for LMS pages. */
export function CourseLtiButton({ launch, ...rest }: CourseLtiButtonProps) {
  return (
    <WithToasts>
      <CourseButtonContent
        {...rest}
        variant="lti"
        open={(bridge, ide) => bridge.openLtiCourse(ide, launch)}
      />
    </WithToasts>
  );
}
