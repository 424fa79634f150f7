import { describe, expect, it } from 'vitest';
import {
  DEVELOPER_ACTIONS,
  developerStatus,
  uploadedVersionNote,
  type DeveloperStatusFacts,
} from './developer-status';
import { decideLifecycleAction, PLUGIN_BLOCK_STATES, PLUGIN_LIFECYCLE_STATES } from './lifecycle';

/** A live item: published, approved, one approved version. */
const LIVE: DeveloperStatusFacts = {
  lifecycleState: 'published',
  approved: true,
  blockState: 'none',
  modificationAllowed: true,
  hidden: false,
  pendingVersions: 0,
  versions: 1,
};
const facts = (change: Partial<DeveloperStatusFacts>): DeveloperStatusFacts => ({ ...LIVE, ...change });

describe("an item's status for its developers", () => {
  it.each([
    [
      'a first upload (draft with its version)',
      facts({ lifecycleState: 'draft', approved: false, pendingVersions: 1 }),
      'Draft',
      'Not visible to anyone else yet. Publish it to send it to the administrators for approval.',
      ['publish', 'request-removal'],
    ],
    [
      'a draft without a version',
      facts({ lifecycleState: 'draft', approved: false, versions: 0 }),
      'Draft',
      'Not visible to anyone else yet. Upload a version, then publish it to send it to the administrators for approval.',
      ['request-removal'],
    ],
    [
      'a published item not approved yet',
      facts({ approved: false, pendingVersions: 1 }),
      'Waiting for approval',
      'Published and in the administrators’ approval queue; nobody else sees it until they approve it.',
      ['request-removal'],
    ],
    ['a live item', facts({}), 'Live', 'Everyone can find, see and install it.', ['request-removal']],
    [
      'a live item with one version waiting',
      facts({ pendingVersions: 1, versions: 2 }),
      'Live — 1 version waiting for approval',
      'Everyone sees it; the new version is offered once an administrator approves it.',
      ['request-removal'],
    ],
    [
      'a live item with versions waiting',
      facts({ pendingVersions: 2, versions: 3 }),
      'Live — 2 versions waiting for approval',
      'Everyone sees it; the new versions are offered once an administrator approves them.',
      ['request-removal'],
    ],
    [
      'a live item with some versions blocked',
      facts({ blockState: 'partial' }),
      'Live',
      'Everyone can find, see and install it. The administrators blocked some of its versions.',
      ['request-removal'],
    ],
    [
      'an approved item its developers hid',
      facts({ hidden: true }),
      'Hidden',
      'Approved, but hidden: only its developers and the administrators see it.',
      ['request-removal'],
    ],
    [
      'an item whose removal is requested',
      facts({ lifecycleState: 'removal_requested' }),
      'Removal requested',
      'Nobody else sees it while the administrators handle your removal request; withdraw the request to bring it back.',
      ['restore'],
    ],
    [
      'a blocked item',
      facts({ blockState: 'blocked' }),
      'Blocked',
      'The administrators blocked it: nobody else sees it, and it cannot be changed until they unblock it.',
      [],
    ],
    [
      'a blocked draft',
      facts({ lifecycleState: 'draft', approved: false, blockState: 'blocked' }),
      'Blocked',
      'The administrators blocked it: nobody else sees it, and it cannot be changed until they unblock it.',
      [],
    ],
    [
      'a deleted item',
      facts({ lifecycleState: 'deleted' }),
      'Deleted',
      'Nobody else sees it any more; only an administrator can restore it.',
      [],
    ],
  ] as const)('%s', (_label, input, label, explanation, actions) => {
    const status = developerStatus(input);
    expect(status).toMatchObject({ label, explanation, actions });
    expect(status.restriction).toBeUndefined();
  });

  it('offers no action while changes are disallowed, and says why', () => {
    for (const input of [facts({}), facts({ lifecycleState: 'draft', approved: false })]) {
      const status = developerStatus({ ...input, modificationAllowed: false });
      expect(status.actions).toEqual([]);
      expect(status.restriction).toMatch(/^An administrator disallowed changes/);
    }
    // Blocked and deleted items say so themselves.
    expect(developerStatus(facts({ blockState: 'blocked', modificationAllowed: false })).restriction).toBe(
      undefined,
    );
  });

  it('offers exactly the developer actions the state machine allows, in every state', () => {
    for (const lifecycleState of PLUGIN_LIFECYCLE_STATES) {
      for (const blockState of PLUGIN_BLOCK_STATES) {
        for (const approved of [false, true]) {
          for (const modificationAllowed of [false, true]) {
            for (const [versions, pendingVersions] of [
              [0, 0],
              [1, 1],
              [2, 0],
            ] as const) {
              const input = {
                lifecycleState,
                blockState,
                approved,
                modificationAllowed,
                versions,
                pendingVersions,
              };
              const allowed = DEVELOPER_ACTIONS.filter(
                (action) =>
                  decideLifecycleAction(action, { ...input, publishedAt: null }, 'developer').allowed,
              );
              const status = developerStatus(input);
              expect(status.actions).toEqual(allowed);
              expect(status.label).not.toBe('');
              expect(status.explanation).toMatch(/\.$/);
              // Publish only for a draft with a version.
              if (status.actions.includes('publish')) expect(status.kind).toBe('draft');
            }
          }
        }
      }
    }
  });

  it('says what happens to a version just uploaded', () => {
    expect(uploadedVersionNote({ lifecycleState: 'draft' })).toBe(
      'It is part of the draft: publish the plugin to send it to the administrators for approval.',
    );
    expect(uploadedVersionNote({ lifecycleState: 'published' })).toBe(
      'It is waiting for an administrator’s approval.',
    );
  });
});
