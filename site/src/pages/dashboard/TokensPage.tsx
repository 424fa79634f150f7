import type { ApiTokenSummary, CreatedApiToken, NewApiToken } from '@marketplace/api-client';
import { TOKEN_NAME_MAX_LENGTH, type TokenScope } from '@marketplace/api-contract';
import { formatDisplayDate } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { errorText, showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';

const SCOPES: readonly (readonly [TokenScope, string])[] = [
  ['upload', 'Upload versions (Gradle publishing)'],
  ['manage', 'Manage plugins'],
];

async function json<T>(request: Parameters<typeof api.request>[0]): Promise<T> {
  const answer = await api.request<T>(request);
  if (answer.kind !== 'json') throw new Error('The server gave no answer to read.');
  return answer.data;
}

function Tokens() {
  const toasts = useToasts();
  const [tokens, reload] = useLoad(
    (signal) => json<ApiTokenSummary[]>({ method: 'GET', path: '/api/users/me/tokens', signal }),
    [],
  );
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>(['upload']);
  const [days, setDays] = useState('90');
  const [created, setCreated] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState('');

  async function create(event: FormEvent) {
    event.preventDefault();
    setFailure('');
    if (!name.trim()) return setFailure('Give the token a name, such as the machine that uses it.');
    if (scopes.length === 0) return setFailure('Choose what the token may do.');
    try {
      const body: NewApiToken = {
        name: name.trim(),
        scopes,
        ...(days ? { expiresInDays: Number(days) } : {}),
      };
      const token = await json<CreatedApiToken>({ method: 'POST', path: '/api/users/me/tokens', json: body });
      setCreated(token.token);
      setName('');
      reload();
    } catch (error) {
      setFailure(errorText(error));
    }
  }

  async function revoke(token: ApiTokenSummary) {
    if (!window.confirm(`Revoke the token “${token.name}”? Tools that use it stop working.`)) return;
    try {
      await api.request({ method: 'DELETE', path: `/api/users/me/tokens/${token.id}` });
      toasts?.show({ kind: 'success', title: 'Token revoked' });
      reload();
    } catch (error) {
      showErrorToast(toasts, error);
    }
  }

  return (
    <div className="site-page site-narrow">
      <p>
        <Link to="/dashboard">← My items</Link>
      </p>
      <h1>API tokens</h1>
      <p className="site-muted">Tokens let build tools publish for you. Treat them like passwords.</p>
      {created ? (
        <div className="site-callout site-callout--success" role="status">
          <h3>Copy your new token now — it is shown only once</h3>
          <code className="site-token">{created}</code>
        </div>
      ) : null}
      <form className="site-form site-card-block" onSubmit={create} noValidate>
        <h2>New token</h2>
        <label className="site-field">
          <span>Name</span>
          <input
            value={name}
            maxLength={TOKEN_NAME_MAX_LENGTH}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <fieldset className="site-filter">
          <legend>May</legend>
          {SCOPES.map(([scope, label]) => (
            <label key={scope} className="site-check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(event) =>
                  setScopes(
                    event.target.checked ? [...scopes, scope] : scopes.filter((other) => other !== scope),
                  )
                }
              />
              {label}
            </label>
          ))}
        </fieldset>
        <label className="site-field">
          <span>Expires after</span>
          <select value={days} onChange={(event) => setDays(event.target.value)}>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
            <option value="365">a year</option>
          </select>
        </label>
        {failure ? (
          <p className="site-error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="site-form-actions">
          <button type="submit" className="mp-button">
            Create token
          </button>
        </div>
      </form>
      {tokens.status === 'rejected' ? <p className="site-error">{errorText(tokens.error)}</p> : null}
      {tokens.status === 'resolved' && tokens.data.length ? (
        <table className="site-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">May</th>
              <th scope="col">Ends with</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="mp-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td>{token.scopes.join(', ')}</td>
                <td>
                  <code>…{token.hint}</code>
                </td>
                <td>{token.expiresAt ? formatDisplayDate(new Date(token.expiresAt)) : 'Never'}</td>
                <td>
                  <button type="button" className="site-button-danger" onClick={() => void revoke(token)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export default function TokensPage() {
  usePageTitle('API tokens');
  return <RequireSignIn>{() => <Tokens />}</RequireSignIn>;
}
