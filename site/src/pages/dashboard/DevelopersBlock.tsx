import type { Developer, UserSuggestion } from '@marketplace/api-client';
import { useToasts } from '@marketplace/ui';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';

/** Wait this long after the last key before asking the server for suggestions. */
const TYPE_AHEAD_DELAY_MS = 200;

/**
 * The item's developers: the owner first, then the people who may manage it too. Adding one offers users by
 * login or name as the developer types (`/api/users/suggestions`; banned users are never offered).
 */
export function DevelopersBlock({ pluginId }: { pluginId: number }) {
  const toasts = useToasts();
  const listId = useId();
  const [loaded] = useLoad((signal) => api.getDevelopers(pluginId, { signal }), [pluginId]);
  const [people, setPeople] = useState<readonly Pick<Developer, 'login' | 'name'>[] | undefined>(undefined);
  const [text, setText] = useState('');
  const [suggestions, setSuggestions] = useState<readonly UserSuggestion[]>([]);
  const [failure, setFailure] = useState('');
  const current = people ?? (loaded.status === 'resolved' ? loaded.data : []);

  useEffect(() => {
    const typed = text.trim();
    if (typed.length < 2) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.users
        .suggestions(typed, 8, { signal: controller.signal })
        .then(setSuggestions, () => setSuggestions([]));
    }, TYPE_AHEAD_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);

  function add(event: FormEvent) {
    event.preventDefault();
    const login = text.trim();
    if (!login) return;
    if (current.some((person) => person.login === login)) return setFailure(`${login} is already listed.`);
    const suggestion = suggestions.find((candidate) => candidate.login === login);
    setPeople([...current, { login, name: suggestion?.name ?? login }]);
    setText('');
    setSuggestions([]);
    setFailure('');
  }

  async function save() {
    setFailure('');
    try {
      await api.request({
        method: 'POST',
        path: `/api/plugins/${pluginId}/developers`,
        json: { developers: current.map((person) => person.login) },
      });
      toasts?.show({ kind: 'success', title: 'Developers saved' });
    } catch (error) {
      setFailure(errorText(error));
    }
  }

  return (
    <section className="site-card-block" aria-labelledby="block-developers">
      <h2 id="block-developers">Developers</h2>
      <ul className="site-developers">
        {current.map((person, index) => (
          <li key={person.login}>
            <strong>{person.name || person.login}</strong> <span className="site-muted">{person.login}</span>
            {index === 0 ? (
              <span className="site-badge">Owner</span>
            ) : (
              <button
                type="button"
                className="site-button-secondary"
                onClick={() => setPeople(current.filter((other) => other.login !== person.login))}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <form className="site-inline-form" onSubmit={add}>
        <label htmlFor={`${listId}-input`}>Add a developer</label>
        <input
          id={`${listId}-input`}
          list={`${listId}-suggestions`}
          value={text}
          autoComplete="off"
          placeholder="Login or name"
          onChange={(event) => setText(event.target.value)}
        />
        <datalist id={`${listId}-suggestions`}>
          {suggestions.map((suggestion) => (
            <option key={suggestion.id} value={suggestion.login}>
              {suggestion.name}
            </option>
          ))}
        </datalist>
        <button type="submit" className="site-button-secondary">
          Add
        </button>
      </form>
      {suggestions.length > 0 ? (
        <ul className="site-developers__suggestions" aria-label="Suggested users">
          {suggestions.map((suggestion) => (
            <li key={suggestion.id}>
              <button type="button" className="site-link-button" onClick={() => setText(suggestion.login)}>
                {suggestion.name} ({suggestion.login})
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {failure ? (
        <p className="site-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="site-form-actions">
        <button type="button" className="mp-button" onClick={() => void save()}>
          Save developers
        </button>
      </div>
    </section>
  );
}
