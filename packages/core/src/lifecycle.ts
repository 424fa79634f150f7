/** Where a plugin is in its life (the server's plugins.lifecycle_state). */
export const PLUGIN_LIFECYCLE_STATES = ['draft', 'published', 'removal_requested', 'deleted'] as const;
export type LifecycleState = (typeof PLUGIN_LIFECYCLE_STATES)[number];
/** Whether administrators blocked a plugin: not at all, some of its versions, or all of it. */
export const PLUGIN_BLOCK_STATES = ['none', 'partial', 'blocked'] as const;
export type BlockState = (typeof PLUGIN_BLOCK_STATES)[number];

/** The actions of spec §4 on a plugin, each a POST (delete is also DELETE /api/plugins/{id}). */
export const LIFECYCLE_ACTIONS = [
  'approve',
  'unapprove',
  'unapprove-updates',
  'publish',
  'request-removal',
  'restore',
  'delete',
  'block',
  'partial-block',
  'unblock',
  'allow-access',
  'disallow-access',
] as const;
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];

/** Actions only administrators may take; the others are the plugin's developers' too. */
export const ADMIN_ACTIONS: ReadonlySet<LifecycleAction> = new Set([
  'approve',
  'unapprove',
  'unapprove-updates',
  'block',
  'partial-block',
  'unblock',
  'allow-access',
  'disallow-access',
]);

/** Actions that may carry a DSA statement of reasons (the block calls and delete). */
export const REPORTING_ACTIONS: ReadonlySet<LifecycleAction> = new Set(['block', 'partial-block', 'delete']);

export interface LifecycleFacts {
  lifecycleState: LifecycleState;
  approved: boolean;
  blockState: BlockState;
  modificationAllowed: boolean;
  publishedAt: Date | null;
  pendingVersions: number;
  versions: number;
}

/** What an allowed action changes: plugin columns, and what happens to versions waiting for approval. */
export interface LifecycleChange {
  lifecycleState?: LifecycleState;
  approved?: boolean;
  blockState?: BlockState;
  modificationAllowed?: boolean;
  setPublishedAt?: boolean;
  pendingVersionsBecome?: 'approved' | 'rejected';
  /** Versions blocked by a partial block are offered again (unblock). */
  unblockVersions?: boolean;
  /** The versions the administrator chose are blocked (partial-block; the route checks the choice). */
  blockChosenVersions?: boolean;
}

export type LifecycleDecision =
  { allowed: true; change: LifecycleChange } | { allowed: false; reason: string };

const refuse = (reason: string): LifecycleDecision => ({ allowed: false, reason });
const allow = (change: LifecycleChange): LifecycleDecision => ({ allowed: true, change });

/**
 * The plugin state machine (written out in README.md): whether `actor` may take `action` on a plugin in
 * `state`, and what it changes. A refusal's reason is the 409 message.
 */
export function decideLifecycleAction(
  action: LifecycleAction,
  state: LifecycleFacts,
  actor: 'admin' | 'developer',
): LifecycleDecision {
  if (actor === 'developer' && ADMIN_ACTIONS.has(action)) {
    return refuse(`Only administrators can ${action.replace('-', ' ')} a plugin.`);
  }
  const deleted = state.lifecycleState === 'deleted';
  if (deleted && !(action === 'restore' && actor === 'admin')) {
    return refuse('The plugin is deleted: only an administrator can restore it.');
  }
  if (actor === 'developer') {
    if (state.blockState === 'blocked') {
      return refuse('The plugin is blocked by the administrators: contact them to have it unblocked first.');
    }
    if (!state.modificationAllowed) {
      return refuse(
        'Changes to this plugin are not allowed at the moment (access was disallowed by an administrator).',
      );
    }
  }
  switch (action) {
    case 'publish':
      if (state.lifecycleState !== 'draft')
        return refuse(`Only a draft can be published; the plugin is ${describe(state)}.`);
      if (state.versions === 0) return refuse('Upload a version of the plugin before publishing it.');
      if (state.blockState === 'blocked') return refuse('A blocked plugin cannot be published.');
      return allow({ lifecycleState: 'published', setPublishedAt: true });
    case 'request-removal':
      if (state.lifecycleState === 'removal_requested')
        return refuse('The removal of this plugin is already requested.');
      return allow({ lifecycleState: 'removal_requested' });
    case 'restore':
      if (state.lifecycleState === 'deleted') return allow({ lifecycleState: 'draft', approved: false });
      if (state.lifecycleState !== 'removal_requested') {
        return refuse(
          `Only a plugin whose removal was requested, or a deleted one, can be restored; the plugin is ${describe(state)}.`,
        );
      }
      return allow({ lifecycleState: state.publishedAt ? 'published' : 'draft' });
    case 'delete':
      return allow({ lifecycleState: 'deleted' });
    case 'approve':
      if (state.approved && state.pendingVersions === 0) {
        return refuse('The plugin is already approved and has no versions waiting for approval.');
      }
      return allow({ approved: true, pendingVersionsBecome: 'approved' });
    case 'unapprove':
      if (!state.approved) return refuse('The plugin is not approved.');
      return allow({ approved: false });
    case 'unapprove-updates':
      if (state.pendingVersions === 0) return refuse('No versions of the plugin are waiting for approval.');
      return allow({ pendingVersionsBecome: 'rejected' });
    case 'block':
      if (state.blockState === 'blocked') return refuse('The plugin is already blocked.');
      return allow({ blockState: 'blocked' });
    case 'partial-block':
      // From `partial` too: more versions may be blocked later.
      if (state.blockState === 'blocked') return refuse('The plugin is already blocked.');
      return allow({ blockState: 'partial', blockChosenVersions: true });
    case 'unblock':
      if (state.blockState === 'none') return refuse('The plugin is not blocked.');
      return allow({ blockState: 'none', unblockVersions: true });
    case 'allow-access':
      if (state.modificationAllowed) return refuse('Changes to the plugin are already allowed.');
      return allow({ modificationAllowed: true });
    case 'disallow-access':
      if (!state.modificationAllowed) return refuse('Changes to the plugin are already disallowed.');
      return allow({ modificationAllowed: false });
    default:
      return action satisfies never;
  }
}

/**
 * The actions an administrator may take on a plugin now, in LIFECYCLE_ACTIONS order: those the state machine
 * allows, a partial block only while some version is offered to visitors (approved) and so can be blocked.
 * The server answers these with an item's moderation state; the admin panel shows these and no others.
 */
export function adminLifecycleActions(state: LifecycleFacts, approvedVersions: number): LifecycleAction[] {
  return LIFECYCLE_ACTIONS.filter(
    (action) =>
      decideLifecycleAction(action, state, 'admin').allowed &&
      (action !== 'partial-block' || approvedVersions > 0),
  );
}

function describe(state: LifecycleFacts): string {
  switch (state.lifecycleState) {
    case 'draft':
      return 'a draft';
    case 'published':
      return 'published';
    case 'removal_requested':
      return 'waiting for removal';
    case 'deleted':
      return 'deleted';
  }
}
