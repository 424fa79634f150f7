import type { Tag } from '@marketplace/api-client';
import { MAX_PLUGIN_TAGS, type ProductFamily } from '@marketplace/core';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { api } from '../lib/api';
import { errorText } from '../lib/errors';
import { useLoad } from '../lib/use-load';
import { RequiredMark } from './RequiredMark';

/** How many matching tags the list shows at once (it scrolls). */
const SHOWN_MATCHES = 50;

/** The tags that can still be chosen and match the typed text, those that start with it first. */
function matchingTags(
  tags: readonly Tag[],
  chosen: readonly string[],
  text: string,
  allowPrivileged: boolean,
): Tag[] {
  const taken = new Set(chosen.map((name) => name.toLowerCase()));
  const query = text.trim().toLowerCase();
  const open = tags.filter(
    (tag) => (allowPrivileged || !tag.privileged) && !taken.has(tag.name.toLowerCase()),
  );
  if (!query) return open.slice(0, SHOWN_MATCHES);
  const starting = open.filter((tag) => tag.name.toLowerCase().startsWith(query));
  const containing = open.filter(
    (tag) => !tag.name.toLowerCase().startsWith(query) && tag.name.toLowerCase().includes(query),
  );
  return [...starting, ...containing].slice(0, SHOWN_MATCHES);
}

/**
 * Tags picked from the catalogue's list of the item's family (GET /api/tags), typed ahead: a combobox whose
 * list narrows as one types; ↑/↓ move through it, Enter (or a click) adds the highlighted tag, Backspace in the
 * empty field removes the last one, and each chosen tag has its remove button. Text that is no known tag is
 * never added. Privileged tags are offered only when `allowPrivileged` (administrators); ones the item already
 * has stay until removed. The server still refuses unknown tags: this only keeps people from sending them.
 */
export function TagPicker({
  label = 'Tags',
  family,
  value,
  onChange,
  max = MAX_PLUGIN_TAGS,
  required = false,
  allowPrivileged = false,
  error,
}: {
  label?: string;
  family: ProductFamily;
  value: readonly string[];
  onChange: (tags: string[]) => void;
  max?: number;
  required?: boolean;
  allowPrivileged?: boolean;
  /** The form's complaint (e.g. no tag chosen), shown under the field. */
  error?: string;
}) {
  const [tags] = useLoad((signal) => api.getTags({ family }, { signal }), [family]);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [notice, setNotice] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const noticeId = `${id}-notice`;

  const known = tags.status === 'resolved' ? tags.data : [];
  const matches = matchingTags(known, value, text, allowPrivileged);
  const expanded = open && matches.length > 0;
  const full = value.length >= max;

  function add(tag: Tag) {
    if (full) return setNotice(`At most ${max} tags: remove one to add another.`);
    onChange([...value, tag.name]);
    setText('');
    setActive(-1);
    setNotice('');
    // Closed, so it covers nothing below; typing, a click or ↓ opens it again.
    setOpen(false);
  }

  function remove(name: string) {
    onChange(value.filter((other) => other !== name));
    setNotice('');
    inputRef.current?.focus();
  }

  function addTyped() {
    const typed = text.trim();
    const exact = matches.find((tag) => tag.name.toLowerCase() === typed.toLowerCase());
    const highlighted = expanded && active >= 0 ? matches[active] : undefined;
    const chosen = highlighted ?? exact;
    if (chosen) return add(chosen);
    if (value.some((name) => name.toLowerCase() === typed.toLowerCase())) {
      return setNotice(`“${typed}” is already chosen.`);
    }
    setNotice(`“${typed}” is not one of the catalogue’s tags: pick one from the list.`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        setOpen(true);
        if (matches.length === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((index) =>
          index < 0 && step < 0 ? matches.length - 1 : (index + step + matches.length) % matches.length,
        );
        return;
      }
      case 'Enter':
      case ',':
        // Enter in an empty field submits the form, as in any other field.
        if (text.trim() === '' && !(expanded && active >= 0)) {
          if (event.key === ',') event.preventDefault();
          return;
        }
        event.preventDefault();
        addTyped();
        return;
      case 'Escape':
        if (expanded) {
          event.preventDefault();
          setOpen(false);
        }
        return;
      case 'Backspace': {
        const last = value[value.length - 1];
        if (text === '' && last !== undefined) {
          event.preventDefault();
          remove(last);
        }
        return;
      }
    }
  }

  const placeholder =
    tags.status === 'pending'
      ? 'Loading tags…'
      : full
        ? `${max} tags chosen, the most allowed`
        : value.length
          ? 'Add another tag'
          : 'Type to find a tag';
  const describedBy = [hintId, notice || error ? noticeId : ''].filter(Boolean).join(' ');
  return (
    <div className="site-field site-tag-picker">
      <label htmlFor={inputId}>
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      {value.length ? (
        <ul className="site-chips site-tag-picker__chosen" aria-label={`Chosen: ${value.length}`}>
          {value.map((name) => (
            <li key={name} className="site-tag-picker__chip">
              <span>{name}</span>
              <button type="button" aria-label={`Remove tag ${name}`} onClick={() => remove(name)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="site-tag-picker__box">
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          role="combobox"
          autoComplete="off"
          maxLength={100}
          value={text}
          placeholder={placeholder}
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setNotice('');
            // The best match is highlighted as one types, so Enter adds it.
            setActive(event.target.value.trim() ? 0 : -1);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        {expanded ? (
          <ul
            className="site-tag-picker__list"
            id={listId}
            role="listbox"
            aria-label={`${label} to choose from`}
          >
            {matches.map((tag, index) => (
              <li
                key={tag.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'is-active' : undefined}
                // Chosen without taking the focus from the field.
                onMouseDown={(event) => {
                  event.preventDefault();
                  add(tag);
                }}
              >
                {tag.name}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <span id={hintId} className="site-muted site-field__hint">
        {`Pick up to ${max} from the catalogue’s tags: type to filter, ↑ ↓ and Enter to add, Backspace to remove the last.`}
      </span>
      {tags.status === 'rejected' ? (
        <span className="site-field__error">The tags could not be loaded: {errorText(tags.error)}</span>
      ) : null}
      {notice || error ? (
        <span id={noticeId} className="site-field__error" role="alert">
          {notice || error}
        </span>
      ) : null}
    </div>
  );
}
