import type { AdminPluginState } from '@marketplace/api-client';
import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModerationActions } from './ModerationActions';

const moderationState = vi.fn<() => Promise<AdminPluginState>>();
vi.mock('../../lib/api', () => ({
  api: {
    moderation: {
      state: () => moderationState(),
      uploadDetails: () => new Promise(() => undefined),
    },
  },
}));

afterEach(() => {
  cleanup();
  moderationState.mockReset();
});

type Version = AdminPluginState['versions'][number];
const version = (id: number, approvalState: string): Version => ({
  id,
  version: `1.${id}.0`,
  channel: '',
  approvalState,
  hidden: false,
  size: 1000,
  uploaded: Date.UTC(2026, 0, id),
});

/** A published, approved item with one approved version, changed by `state` and `versions`. */
function item(state: Partial<AdminPluginState['state']>, versions: Version[] = [version(1, 'approved')]) {
  return {
    state: {
      id: 7,
      lifecycleState: 'published',
      approved: true,
      blockState: 'none',
      modificationAllowed: true,
      hasUnapprovedUpdate: versions.some((entry) => entry.approvalState === 'pending'),
      listed: true,
      ...state,
    },
    name: 'Rainbow Brackets',
    xmlId: 'com.example.rainbow',
    family: 'intellij',
    // What the server answers is not what the panel goes by: it follows the state (the same rule in core).
    actions: [],
    versions,
    openReports: 0,
  } satisfies AdminPluginState;
}

async function shownActions(answer: AdminPluginState): Promise<string[]> {
  moderationState.mockResolvedValue(answer);
  render(
    <ToastProvider>
      <MemoryRouter>
        <ModerationActions pluginId={7} onChanged={() => undefined} />
      </MemoryRouter>
    </ToastProvider>,
  );
  const panel = await screen.findByLabelText('Moderation actions');
  return within(panel)
    .queryAllByRole('button')
    .map((button) => button.textContent ?? '');
}

describe('the moderation panel shows only the actions that apply', () => {
  it.each([
    [
      'a new item waiting for approval',
      item({ approved: false, listed: false }, [version(1, 'pending')]),
      ['Approve', 'Unapprove updates', 'Disallow access', 'Block', 'Delete'],
    ],
    ['an approved item', item({}), ['Unapprove', 'Disallow access', 'Block versions', 'Block', 'Delete']],
    [
      'an approved item with an update waiting',
      item({}, [version(2, 'pending'), version(1, 'approved')]),
      ['Approve', 'Unapprove', 'Unapprove updates', 'Disallow access', 'Block versions', 'Block', 'Delete'],
    ],
    [
      'a blocked item',
      item({ blockState: 'blocked', listed: false }),
      ['Unapprove', 'Unblock', 'Disallow access', 'Delete'],
    ],
    [
      'an item with some versions blocked',
      item({ blockState: 'partial' }, [version(2, 'blocked'), version(1, 'approved')]),
      ['Unapprove', 'Unblock', 'Disallow access', 'Block versions', 'Block', 'Delete'],
    ],
    [
      'an item whose every offered version is blocked',
      item({ blockState: 'partial', listed: false }, [version(1, 'blocked')]),
      ['Unapprove', 'Unblock', 'Disallow access', 'Block', 'Delete'],
    ],
    [
      'an item whose removal is requested',
      item({ lifecycleState: 'removal_requested', listed: false }),
      ['Unapprove', 'Restore', 'Disallow access', 'Block versions', 'Block', 'Delete'],
    ],
    ['a deleted item', item({ lifecycleState: 'deleted', listed: false }), ['Restore']],
    [
      'an item whose changes are disallowed',
      item({ modificationAllowed: false }),
      ['Unapprove', 'Allow access', 'Block versions', 'Block', 'Delete'],
    ],
    [
      'a draft that was never approved, with no version',
      item({ lifecycleState: 'draft', approved: false, listed: false }, []),
      ['Approve', 'Disallow access', 'Block', 'Delete'],
    ],
  ])('%s', async (_label, answer, expected) => {
    expect(await shownActions(answer)).toEqual(expected);
  });

  it('offers only the versions not blocked yet for a partial block', async () => {
    await shownActions(
      item({ blockState: 'partial' }, [version(3, 'approved'), version(2, 'blocked'), version(1, 'pending')]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Block versions' }));
    const choice = screen.getByRole('group', { name: 'Versions to block' });
    expect(
      within(choice)
        .getAllByRole('checkbox')
        .map((box) => box.parentElement?.textContent?.trim()),
    ).toEqual(['1.3.0']);
  });
});
