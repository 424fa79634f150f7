import type { SearchSuggestions } from '@marketplace/api-client';
import { itemNoun } from '@marketplace/core';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../lib/api';

interface Suggestion {
  key: string;
  label: string;
  /** What the suggestion is, shown beside it: the item's noun ('Plugin', 'Theme', 'Course', 'App'...) or 'Tag'. */
  kind: string;
  href: string;
}

function suggestionsOf(answer: SearchSuggestions): Suggestion[] {
  return [
    ...answer.plugins.map((plugin) => ({
      key: `plugin-${plugin.id}`,
      label: plugin.name,
      kind: plugin.isTheme ? 'Theme' : itemNoun(plugin.family, { capitalised: true }),
      href: plugin.link,
    })),
    ...answer.tags.map((tag) => ({
      key: `tag-${tag.id}`,
      label: tag.name,
      kind: 'Tag',
      href: tag.link,
    })),
  ];
}

/** Waits this long after the last key before asking for suggestions, so typing a word is one call. */
const SUGGEST_DELAY_MS = 150;

/** The search field of the header: suggestions while typing (items and tags), Enter searches. */
export function SearchBox() {
  const [params] = useSearchParams();
  const [text, setText] = useState(params.get('search') ?? '');
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => setText(params.get('search') ?? ''), [params]);

  useEffect(() => {
    const term = text.trim();
    if (!open || term.length < 2) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.searchSuggest({ term: term.slice(0, 100) }, { signal: controller.signal }).then(
        (answer) => {
          setSuggestions(suggestionsOf(answer));
          setActive(-1);
        },
        () => setSuggestions([]),
      );
    }, SUGGEST_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, open]);

  function go(href: string) {
    setOpen(false);
    setSuggestions([]);
    void navigate(href);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = suggestions[active];
    if (chosen) return go(chosen.href);
    const next = new URLSearchParams();
    if (text.trim()) next.set('search', text.trim());
    go(`/search${next.size ? `?${next.toString()}` : ''}`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && suggestions.length) {
      event.preventDefault();
      setActive((index) => (index + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && suggestions.length) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? suggestions.length - 1 : index - 1));
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  }

  const expanded = open && suggestions.length > 0;
  return (
    <form className="site-search" role="search" onSubmit={submit}>
      <label htmlFor={`${listId}-input`} className="mp-visually-hidden">
        Search plugins
      </label>
      <input
        ref={inputRef}
        id={`${listId}-input`}
        type="search"
        name="search"
        placeholder="Search plugins, themes, courses"
        autoComplete="off"
        maxLength={200}
        value={text}
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
      />
      {expanded ? (
        <ul className="site-search__suggestions" id={listId} role="listbox" aria-label="Suggestions">
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion.key}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'is-active' : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                go(suggestion.href);
              }}
            >
              <span>{suggestion.label}</span>
              <span className="site-search__kind">{suggestion.kind}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}
