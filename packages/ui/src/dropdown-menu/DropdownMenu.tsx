import type { KeyboardEvent, ReactNode } from 'react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { DROPDOWN_TRANSITION_MS } from './dropdown-menu-css';

export { DROPDOWN_TRANSITION_MS };

export type DropdownState = 'opening' | 'open' | 'closing' | 'closed';

export interface DropdownMenuItem {
  id: string;
  label: string;
  /** Items with the same group are shown together under the group's name. */
  group?: string;
  disabled?: boolean;
  onSelect: () => void;
}

export interface DropdownMenuProps {
  /** Content of the button that opens the menu. */
  trigger: ReactNode;
  /** Accessible name of the menu. */
  label: string;
  items: readonly DropdownMenuItem[];
  disabled?: boolean;
  busy?: boolean;
  /** Called on every state change (opening, open, closing, closed). */
  onStateChange?: (state: DropdownState) => void;
  className?: string;
}

function groupItems(
  items: readonly DropdownMenuItem[],
): { name: string | undefined; items: DropdownMenuItem[] }[] {
  const groups: { name: string | undefined; items: DropdownMenuItem[] }[] = [];
  for (const item of items) {
    const existing = groups.find((group) => group.name === item.group);
    if (existing) existing.items.push(item);
    else groups.push({ name: item.group, items: [item] });
  }
  return groups;
}

/**
 * A button that opens a menu 8 px below it. The menu goes through opening -> open -> closing -> closed so
 * it can fade in and out; arrow keys move between items, Escape closes and gives focus back to the button.
 */
export function DropdownMenu({
  trigger,
  label,
  items,
  disabled = false,
  busy = false,
  onStateChange,
  className,
}: DropdownMenuProps) {
  const id = useId();
  const [state, setState] = useState<DropdownState>('closed');
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const focusFirstOnOpen = useRef(false);
  const onStateChangeRef = useRef(onStateChange);
  onStateChangeRef.current = onStateChange;

  useEffect(() => {
    onStateChangeRef.current?.(state);
    if (state === 'opening' || state === 'closing') {
      const timer = setTimeout(
        () => setState(state === 'opening' ? 'open' : 'closed'),
        DROPDOWN_TRANSITION_MS,
      );
      return () => clearTimeout(timer);
    }
    return undefined;
  }, [state]);

  const menuItems = useCallback(
    () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
    [],
  );

  useEffect(() => {
    if (state === 'opening' && focusFirstOnOpen.current) {
      focusFirstOnOpen.current = false;
      menuItems()[0]?.focus();
    }
  }, [state, menuItems]);

  const close = useCallback((returnFocus: boolean) => {
    setState((current) => (current === 'closed' || current === 'closing' ? current : 'closing'));
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  const isShown = state === 'opening' || state === 'open';

  // Clicks outside close the menu; composedPath sees through shadow roots, where event targets are retargeted.
  useEffect(() => {
    if (!isShown) return undefined;
    const onPointerDown = (event: Event) => {
      if (rootRef.current && !event.composedPath().includes(rootRef.current)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [isShown, close]);

  const open = (focusFirst: boolean) => {
    if (disabled || busy) return;
    focusFirstOnOpen.current = focusFirst;
    setState('opening');
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (isShown) menuItems()[0]?.focus();
      else open(true);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = menuItems();
    const index = all.findIndex((element) => element === event.target);
    const move = (to: number) => all[(to + all.length) % all.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        move(index + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        move(index - 1);
        break;
      case 'Home':
        event.preventDefault();
        move(0);
        break;
      case 'End':
        event.preventDefault();
        move(all.length - 1);
        break;
      case 'Escape':
        event.preventDefault();
        close(true);
        break;
      case 'Tab':
        close(false);
        break;
      default:
        break;
    }
  };

  const select = (item: DropdownMenuItem) => {
    if (item.disabled) return;
    close(true);
    item.onSelect();
  };

  return (
    <div className={['mp-dropdown', className].filter(Boolean).join(' ')} data-state={state} ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="mp-button"
        aria-haspopup="menu"
        aria-expanded={isShown}
        aria-controls={state === 'closed' ? undefined : `${id}-menu`}
        aria-busy={busy || undefined}
        disabled={disabled || busy}
        onClick={() => (isShown ? close(false) : open(false))}
        onKeyDown={onButtonKeyDown}
      >
        {trigger}
        <svg className="mp-dropdown__caret" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
          {/* The stroke's width is in the styles, as every SVG attribute whose name differs from its prop's (README). */}
          <path d="M1 3l4 4 4-4" fill="none" stroke="currentColor" />
        </svg>
      </button>
      {state === 'closed' ? null : (
        <div
          ref={menuRef}
          id={`${id}-menu`}
          className="mp-dropdown__menu"
          role="menu"
          aria-label={label}
          data-state={state}
          onKeyDown={onMenuKeyDown}
        >
          {groupItems(items).map((group, groupIndex) => (
            <div
              key={group.name ?? `ungrouped-${groupIndex}`}
              className="mp-dropdown__group"
              role="group"
              aria-labelledby={group.name ? `${id}-group-${groupIndex}` : undefined}
            >
              {group.name ? (
                <div
                  className="mp-dropdown__group-label"
                  id={`${id}-group-${groupIndex}`}
                  role="presentation"
                >
                  {group.name}
                </div>
              ) : null}
              {group.items.map((item) => (
                <button
                  key={item.id}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className="mp-dropdown__item"
                  aria-disabled={item.disabled || undefined}
                  onClick={() => select(item)}
                >
                  {item.label}
                </button>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
