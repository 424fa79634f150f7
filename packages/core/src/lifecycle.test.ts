import { describe, expect, it } from 'vitest';
import {
  ADMIN_ACTIONS,
  adminLifecycleActions,
  decideLifecycleAction,
  LIFECYCLE_ACTIONS,
  type LifecycleFacts,
} from './lifecycle';

const PUBLISHED: LifecycleFacts = {
  lifecycleState: 'published',
  approved: true,
  blockState: 'none',
  modificationAllowed: true,
  publishedAt: new Date('2026-01-01T00:00:00Z'),
  pendingVersions: 0,
  versions: 1,
};

const state = (change: Partial<LifecycleFacts>): LifecycleFacts => ({ ...PUBLISHED, ...change });

describe('the plugin state machine', () => {
  it('keeps the administrators\u2019 actions to administrators', () => {
    for (const action of ADMIN_ACTIONS) {
      const decision = decideLifecycleAction(
        action,
        state({ approved: false, pendingVersions: 1 }),
        'developer',
      );
      expect(decision).toEqual({
        allowed: false,
        reason: expect.stringMatching(/^Only administrators can/) as unknown,
      });
    }
  });

  it.each([
    [
      'publish',
      state({ lifecycleState: 'draft', publishedAt: null }),
      { lifecycleState: 'published', setPublishedAt: true },
    ],
    ['request-removal', state({}), { lifecycleState: 'removal_requested' }],
    ['restore', state({ lifecycleState: 'removal_requested' }), { lifecycleState: 'published' }],
    [
      'restore',
      state({ lifecycleState: 'removal_requested', publishedAt: null }),
      { lifecycleState: 'draft' },
    ],
    ['delete', state({ lifecycleState: 'draft' }), { lifecycleState: 'deleted' }],
  ] as const)('lets developers %s (%#)', (action, from, change) => {
    expect(decideLifecycleAction(action, from, 'developer')).toEqual({ allowed: true, change });
  });

  it.each([
    ['approve', state({ approved: false }), { approved: true, pendingVersionsBecome: 'approved' }],
    ['approve', state({ pendingVersions: 2 }), { approved: true, pendingVersionsBecome: 'approved' }],
    ['unapprove', state({}), { approved: false }],
    ['unapprove-updates', state({ pendingVersions: 1 }), { pendingVersionsBecome: 'rejected' }],
    ['block', state({ blockState: 'partial' }), { blockState: 'blocked' }],
    ['partial-block', state({}), { blockState: 'partial', blockChosenVersions: true }],
    // More versions may be blocked while some already are.
    ['partial-block', state({ blockState: 'partial' }), { blockState: 'partial', blockChosenVersions: true }],
    ['unblock', state({ blockState: 'blocked' }), { blockState: 'none', unblockVersions: true }],
    ['unblock', state({ blockState: 'partial' }), { blockState: 'none', unblockVersions: true }],
    ['disallow-access', state({}), { modificationAllowed: false }],
    ['allow-access', state({ modificationAllowed: false }), { modificationAllowed: true }],
    ['restore', state({ lifecycleState: 'deleted' }), { lifecycleState: 'draft', approved: false }],
  ] as const)('lets administrators %s (%#)', (action, from, change) => {
    expect(decideLifecycleAction(action, from, 'admin')).toEqual({ allowed: true, change });
  });

  it.each([
    ['publish', state({}), 'developer', 'Only a draft can be published; the plugin is published.'],
    [
      'publish',
      state({ lifecycleState: 'draft', versions: 0 }),
      'developer',
      'Upload a version of the plugin before publishing it.',
    ],
    [
      'publish',
      state({ lifecycleState: 'draft', blockState: 'blocked' }),
      'admin',
      'A blocked plugin cannot be published.',
    ],
    [
      'request-removal',
      state({ lifecycleState: 'removal_requested' }),
      'developer',
      'The removal of this plugin is already requested.',
    ],
    [
      'restore',
      state({}),
      'developer',
      'Only a plugin whose removal was requested, or a deleted one, can be restored; the plugin is published.',
    ],
    [
      'restore',
      state({ lifecycleState: 'deleted' }),
      'developer',
      'The plugin is deleted: only an administrator can restore it.',
    ],
    [
      'approve',
      state({}),
      'admin',
      'The plugin is already approved and has no versions waiting for approval.',
    ],
    ['unapprove', state({ approved: false }), 'admin', 'The plugin is not approved.'],
    ['unapprove-updates', state({}), 'admin', 'No versions of the plugin are waiting for approval.'],
    ['block', state({ blockState: 'blocked' }), 'admin', 'The plugin is already blocked.'],
    ['partial-block', state({ blockState: 'blocked' }), 'admin', 'The plugin is already blocked.'],
    ['unblock', state({}), 'admin', 'The plugin is not blocked.'],
    ['allow-access', state({}), 'admin', 'Changes to the plugin are already allowed.'],
    [
      'disallow-access',
      state({ modificationAllowed: false }),
      'admin',
      'Changes to the plugin are already disallowed.',
    ],
    [
      'delete',
      state({ blockState: 'blocked' }),
      'developer',
      'The plugin is blocked by the administrators: contact them to have it unblocked first.',
    ],
    [
      'publish',
      state({ lifecycleState: 'draft', modificationAllowed: false }),
      'developer',
      'Changes to this plugin are not allowed at the moment (access was disallowed by an administrator).',
    ],
  ] as const)('refuses %s (%#) with a reason', (action, from, actor, reason) => {
    expect(decideLifecycleAction(action, from, actor)).toEqual({ allowed: false, reason });
  });

  it('allows nothing but an administrator\u2019s restore on a deleted plugin', () => {
    const deleted = state({ lifecycleState: 'deleted' });
    for (const action of LIFECYCLE_ACTIONS) {
      for (const actor of ['admin', 'developer'] as const) {
        const decision = decideLifecycleAction(action, deleted, actor);
        expect(decision.allowed).toBe(action === 'restore' && actor === 'admin');
      }
    }
  });

  it.each([
    [
      'an approved item',
      state({}),
      1,
      ['unapprove', 'request-removal', 'delete', 'block', 'partial-block', 'disallow-access'],
    ],
    [
      'an item waiting for approval',
      state({ approved: false, pendingVersions: 1 }),
      0,
      ['approve', 'unapprove-updates', 'request-removal', 'delete', 'block', 'disallow-access'],
    ],
    [
      'a blocked item',
      state({ blockState: 'blocked' }),
      0,
      ['unapprove', 'request-removal', 'delete', 'unblock', 'disallow-access'],
    ],
    [
      'an item with some versions blocked',
      state({ blockState: 'partial' }),
      1,
      ['unapprove', 'request-removal', 'delete', 'block', 'partial-block', 'unblock', 'disallow-access'],
    ],
    ['a deleted item', state({ lifecycleState: 'deleted' }), 1, ['restore']],
  ] as const)('lists what an administrator may do to %s', (_label, from, approvedVersions, actions) => {
    expect(adminLifecycleActions(from, approvedVersions)).toEqual(actions);
  });

  it('offers a partial block only while some version is offered to visitors', () => {
    expect(adminLifecycleActions(state({}), 0)).not.toContain('partial-block');
    expect(adminLifecycleActions(state({ blockState: 'partial' }), 0)).not.toContain('partial-block');
  });
});
