import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DropdownState } from './DropdownMenu';
import { DROPDOWN_TRANSITION_MS, DropdownMenu } from './DropdownMenu';

const select = { idea: vi.fn(), pycharm: vi.fn(), second: vi.fn() };
const items = [
  { id: 'idea', label: 'IntelliJ IDEA', onSelect: select.idea },
  { id: 'py-1', label: 'PY-252.1', group: 'PyCharm', onSelect: select.pycharm },
  { id: 'py-2', label: 'PY-252.2', group: 'PyCharm', onSelect: select.second },
];

describe('DropdownMenu', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => {
    vi.useRealTimers();
    vi.clearAllMocks();
  });
  const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const finishTransition = () => act(() => vi.advanceTimersByTime(DROPDOWN_TRANSITION_MS));

  it('goes through opening, open, closing and closed', async () => {
    const states: DropdownState[] = [];
    render(
      <DropdownMenu trigger="Install" label="IDEs" items={items} onStateChange={(s) => states.push(s)} />,
    );
    const button = screen.getByRole('button', { name: 'Install' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await user().click(button);
    expect(screen.getByRole('menu', { name: 'IDEs' }).getAttribute('data-state')).toBe('opening');
    finishTransition();
    expect(screen.getByRole('menu').getAttribute('data-state')).toBe('open');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await user().click(button);
    expect(screen.getByRole('menu').getAttribute('data-state')).toBe('closing');
    finishTransition();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(states).toEqual(['closed', 'opening', 'open', 'closing', 'closed']);
  });

  it('shows the items grouped, and runs the chosen one', async () => {
    render(<DropdownMenu trigger="Install" label="IDEs" items={items} />);
    await user().click(screen.getByRole('button', { name: 'Install' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'IntelliJ IDEA',
      'PY-252.1',
      'PY-252.2',
    ]);
    expect(screen.getByRole('group', { name: 'PyCharm' })).toBeTruthy();
    await user().click(screen.getByRole('menuitem', { name: 'PY-252.2' }));
    expect(select.second).toHaveBeenCalledOnce();
    expect(select.pycharm).not.toHaveBeenCalled();
    expect(screen.getByRole('menu').getAttribute('data-state')).toBe('closing');
  });

  it('works from the keyboard: arrow down opens on the first item, Escape closes and returns focus', async () => {
    render(<DropdownMenu trigger="Install" label="IDEs" items={items} />);
    const button = screen.getByRole('button', { name: 'Install' });
    button.focus();
    await user().keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('IntelliJ IDEA');
    await user().keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('PY-252.2');
    await user().keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('IntelliJ IDEA');
    await user().keyboard('{ArrowUp}{Enter}');
    expect(select.second).toHaveBeenCalledOnce();
    button.focus();
    await user().keyboard('{ArrowDown}{Escape}');
    expect(document.activeElement).toBe(button);
    finishTransition();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes on a click outside', async () => {
    render(
      <div>
        <p>Elsewhere</p>
        <DropdownMenu trigger="Install" label="IDEs" items={items} />
      </div>,
    );
    await user().click(screen.getByRole('button', { name: 'Install' }));
    await user().click(screen.getByText('Elsewhere'));
    finishTransition();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('does not open while busy', async () => {
    render(<DropdownMenu trigger="Installing" label="IDEs" items={items} busy />);
    const button = screen.getByRole('button', { name: 'Installing' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    await user().click(button);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
