import { decideLifecycleAction, type LifecycleAction, type LifecycleFacts } from './lifecycle';

/**
 * What an item's developers are told about its lifecycle, on every page that shows it (the upload page, the
 * manage page, the list of their items): one label, one sentence, and the actions that apply. The words follow
 * the server's model (the state machine in lifecycle.ts): a first upload makes a Draft; its developer publishes
 * it; it then waits for approval in the administrators' queue (so does every new version); once approved it is
 * Live.
 */

/** The lifecycle actions developers take on their own items, in the order the pages offer them. */
export const DEVELOPER_ACTIONS = [
  'publish',
  'restore',
  'request-removal',
] as const satisfies readonly LifecycleAction[];
export type DeveloperAction = (typeof DEVELOPER_ACTIONS)[number];

/** The buttons of the developer actions (restore, for a developer, withdraws their removal request). */
export const DEVELOPER_ACTION_LABELS: Readonly<Record<DeveloperAction, string>> = {
  publish: 'Publish',
  restore: 'Withdraw the removal request',
  'request-removal': 'Request removal',
};

/** One sentence on the whole lifecycle, for the pages that explain it before there is an item. */
export const PUBLISHING_STEPS =
  'A new plugin starts as a draft that only you see; publish it to send it to the administrators for approval, and everyone sees it once they approve it (every new version waits for their approval too).';

export type DeveloperStatusKind =
  | 'draft'
  | 'waiting'
  | 'live'
  | 'live-updates-waiting'
  | 'hidden'
  | 'removal-requested'
  | 'blocked'
  | 'deleted';

/** The facts of an item its status is made of (the server's `lifecycle` of an item, for its developers). */
export type DeveloperStatusFacts = Omit<LifecycleFacts, 'publishedAt'> & {
  /** Hidden by its developers: not listed even when approved. */
  hidden?: boolean;
};

export interface DeveloperStatus {
  kind: DeveloperStatusKind;
  /** A short label, e.g. "Draft" or "Live — 2 versions waiting for approval". */
  label: string;
  /** One sentence: who sees it and what happens next. */
  explanation: string;
  /** How a badge shows it. */
  tone: 'neutral' | 'warning' | 'success' | 'danger';
  /** The developer actions the server allows now (decideLifecycleAction), in DEVELOPER_ACTIONS order. */
  actions: DeveloperAction[];
  /** Why nothing can be done for now, when an administrator disallowed changes; otherwise undefined. */
  restriction?: string;
}

const versionsText = (count: number) => `${count} ${count === 1 ? 'version' : 'versions'}`;

function describe(facts: DeveloperStatusFacts): Omit<DeveloperStatus, 'actions' | 'restriction'> {
  if (facts.lifecycleState === 'deleted') {
    return {
      kind: 'deleted',
      label: 'Deleted',
      explanation: 'Nobody else sees it any more; only an administrator can restore it.',
      tone: 'danger',
    };
  }
  if (facts.blockState === 'blocked') {
    return {
      kind: 'blocked',
      label: 'Blocked',
      explanation:
        'The administrators blocked it: nobody else sees it, and it cannot be changed until they unblock it.',
      tone: 'danger',
    };
  }
  if (facts.lifecycleState === 'removal_requested') {
    return {
      kind: 'removal-requested',
      label: 'Removal requested',
      explanation:
        'Nobody else sees it while the administrators handle your removal request; withdraw the request to bring it back.',
      tone: 'warning',
    };
  }
  if (facts.lifecycleState === 'draft') {
    return {
      kind: 'draft',
      label: 'Draft',
      explanation:
        facts.versions === 0
          ? 'Not visible to anyone else yet. Upload a version, then publish it to send it to the administrators for approval.'
          : 'Not visible to anyone else yet. Publish it to send it to the administrators for approval.',
      tone: 'neutral',
    };
  }
  if (!facts.approved) {
    return {
      kind: 'waiting',
      label: 'Waiting for approval',
      explanation:
        'Published and in the administrators’ approval queue; nobody else sees it until they approve it.',
      tone: 'warning',
    };
  }
  if (facts.hidden) {
    return {
      kind: 'hidden',
      label: 'Hidden',
      explanation: 'Approved, but hidden: only its developers and the administrators see it.',
      tone: 'neutral',
    };
  }
  const partly = facts.blockState === 'partial' ? ' The administrators blocked some of its versions.' : '';
  if (facts.pendingVersions > 0) {
    return {
      kind: 'live-updates-waiting',
      label: `Live — ${versionsText(facts.pendingVersions)} waiting for approval`,
      explanation: `Everyone sees it; the new ${facts.pendingVersions === 1 ? 'version is' : 'versions are'} offered once an administrator approves ${facts.pendingVersions === 1 ? 'it' : 'them'}.${partly}`,
      tone: 'success',
    };
  }
  return {
    kind: 'live',
    label: 'Live',
    explanation: `Everyone can find, see and install it.${partly}`,
    tone: 'success',
  };
}

/**
 * An item's status for its developers, and the lifecycle actions they may take on it now: those the server's
 * state machine allows a developer (so Publish only for a draft with a version, Request removal only when it
 * is not requested yet, nothing while blocked, deleted or with changes disallowed).
 */
export function developerStatus(facts: DeveloperStatusFacts): DeveloperStatus {
  const state: LifecycleFacts = { ...facts, publishedAt: null };
  const actions = DEVELOPER_ACTIONS.filter(
    (action) => decideLifecycleAction(action, state, 'developer').allowed,
  );
  const status = describe(facts);
  // Deleted and blocked items say themselves that nothing can be done.
  const restricted = !facts.modificationAllowed && status.kind !== 'deleted' && status.kind !== 'blocked';
  return {
    ...status,
    actions,
    ...(restricted
      ? {
          restriction:
            'An administrator disallowed changes for now: nothing can be changed, uploaded or published until they allow it again.',
        }
      : {}),
  };
}

/** What happens to a version just uploaded to an item in this state, in one sentence. */
export function uploadedVersionNote(facts: Pick<DeveloperStatusFacts, 'lifecycleState'>): string {
  return facts.lifecycleState === 'draft'
    ? 'It is part of the draft: publish the plugin to send it to the administrators for approval.'
    : 'It is waiting for an administrator’s approval.';
}
