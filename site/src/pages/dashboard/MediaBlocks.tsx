import type { Plugin } from '@marketplace/api-client';
import { itemNoun } from '@marketplace/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { RequiredMark } from '../../components/RequiredMark';
import { api } from '../../lib/api';
import { Block, useSave } from './manage-parts';

/** Sends one file; an upload the server refuses rejects with its errors (for useSave's toast). */
async function uploadOrThrow(
  path: string,
  file: File,
  method: 'POST' | 'PUT' = 'POST',
  query?: Record<string, string>,
) {
  const outcome = await api.upload(path, { file, fileName: file.name, method, ...(query ? { query } : {}) });
  if (!outcome.ok) throw new Error(outcome.result.errors.join(' '));
  return outcome;
}

/** A block with what the item has (`children`) above a form that uploads one more file. */
function FileUpload({
  title,
  label,
  accept,
  onUpload,
  extra,
  children,
}: {
  title: string;
  label: string;
  accept: string;
  onUpload: (file: File) => Promise<unknown>;
  extra?: ReactNode;
  children?: ReactNode;
}) {
  const { busy, save } = useSave();
  const [file, setFile] = useState<File | undefined>(undefined);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (file) await save(title, () => onUpload(file));
  }
  return (
    <Block title={title}>
      {children}
      <form className="site-form" onSubmit={submit} aria-label={`Upload: ${title}`}>
        {extra}
        <label className="site-field">
          <span>{label}</span>
          <input type="file" accept={accept} onChange={(event) => setFile(event.target.files?.[0])} />
        </label>
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={!file || busy}>
            Upload
          </button>
        </div>
      </form>
    </Block>
  );
}

export function IconBlock({ plugin, onChanged }: { plugin: Plugin; onChanged: () => void }) {
  return (
    <FileUpload
      title="Icon"
      label="Icon (SVG or PNG)"
      accept=".svg,.png"
      onUpload={(file) => uploadOrThrow(`/api/plugins/${plugin.id}/icon`, file, 'PUT').then(onChanged)}
    />
  );
}

/**
 * The item's screenshots as thumbnails, in the order the item page shows them, each movable and deletable
 * (PUT /api/plugins/{id}/screenshots with the urls to keep, in order: the spec's way to reorder and delete),
 * and a form for one more.
 */
export function ScreenshotsBlock({ plugin, onChanged }: { plugin: Plugin; onChanged: () => void }) {
  const { busy, run } = useSave();
  const [shown, setShown] = useState(() => plugin.screenshots.map((screenshot) => screenshot.url));
  const noun = itemNoun(plugin.info.family);

  async function arrange(urls: string[], done: string) {
    await run(done, async () => {
      const now = await api.arrangeScreenshots(plugin.id, urls);
      setShown(now.map((screenshot) => screenshot.url));
      onChanged();
    });
  }

  function move(index: number, by: -1 | 1) {
    const urls = [...shown];
    const [moved] = urls.splice(index, 1);
    urls.splice(index + by, 0, moved!);
    void arrange(urls, `Screenshot ${index + 1} moved ${by < 0 ? 'up' : 'down'}`);
  }

  function remove(index: number) {
    if (
      !window.confirm(`Delete screenshot ${index + 1}? It cannot be brought back; upload it again instead.`)
    )
      return;
    void arrange(
      shown.filter((_, other) => other !== index),
      `Screenshot ${index + 1} deleted`,
    );
  }

  return (
    <FileUpload
      title="Screenshots"
      label="Screenshot (PNG, JPEG or GIF)"
      accept="image/png,image/jpeg,image/gif"
      onUpload={(file) =>
        uploadOrThrow(`/api/plugins/${plugin.id}/screenshots`, file).then((outcome) => {
          const now = outcome.data as { url: string }[] | undefined;
          if (Array.isArray(now)) setShown(now.map((screenshot) => screenshot.url));
          onChanged();
        })
      }
    >
      {shown.length === 0 ? (
        <p className="site-muted">The {noun} has no screenshots yet.</p>
      ) : (
        <ol className="site-manage-list" aria-label="Current screenshots" aria-busy={busy}>
          {shown.map((url, index) => (
            <li key={url}>
              <img className="site-manage-screenshot" src={url} alt={`Screenshot ${index + 1}`} />
              <span className="site-manage-list__name">Screenshot {index + 1}</span>
              <span className="site-manage-list__actions">
                <button
                  type="button"
                  className="site-button-secondary"
                  aria-label={`Move screenshot ${index + 1} up`}
                  disabled={busy || index === 0}
                  onClick={() => move(index, -1)}
                >
                  Move up
                </button>
                <button
                  type="button"
                  className="site-button-secondary"
                  aria-label={`Move screenshot ${index + 1} down`}
                  disabled={busy || index === shown.length - 1}
                  onClick={() => move(index, 1)}
                >
                  Move down
                </button>
                <button
                  type="button"
                  className="site-button-secondary"
                  aria-label={`Delete screenshot ${index + 1}`}
                  disabled={busy}
                  onClick={() => remove(index)}
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ol>
      )}
    </FileUpload>
  );
}

/** The item's documentation tabs, each deletable (after a confirmation), and a form to add or replace one. */
export function DocumentationTabsBlock({ plugin, onChanged }: { plugin: Plugin; onChanged: () => void }) {
  const { busy, run } = useSave();
  const [tabName, setTabName] = useState('');
  const [gone, setGone] = useState<ReadonlySet<string>>(() => new Set());
  const tabs = plugin.customTabs.filter((tab) => !gone.has(tab.urlSuffix));
  const noun = itemNoun(plugin.info.family);

  async function remove(tab: { tabName: string; urlSuffix: string }) {
    if (!window.confirm(`Delete the documentation tab "${tab.tabName}"? Its text is deleted with it.`))
      return;
    await run(`Documentation tab "${tab.tabName}" deleted`, async () => {
      await api.deleteDocumentationTab(plugin.id, tab.urlSuffix);
      setGone(new Set([...gone, tab.urlSuffix]));
      onChanged();
    });
  }

  return (
    <FileUpload
      title="Documentation tabs"
      label="Markdown or HTML file"
      accept=".md,.markdown,.html,.htm"
      extra={
        <label className="site-field">
          <span>
            Tab name
            <RequiredMark />
          </span>
          <input
            value={tabName}
            maxLength={100}
            required
            aria-required="true"
            onChange={(event) => setTabName(event.target.value)}
          />
        </label>
      }
      onUpload={(file) => {
        if (!tabName.trim()) return Promise.reject(new Error('Give the tab a name.'));
        return uploadOrThrow(`/api/plugins/${plugin.id}/documentation`, file, 'POST', {
          tabName: tabName.trim(),
        }).then(onChanged);
      }}
    >
      {tabs.length === 0 ? (
        <p className="site-muted">The {noun} has no documentation tabs yet.</p>
      ) : (
        <ul className="site-manage-list" aria-label="Current documentation tabs">
          {tabs.map((tab) => (
            <li key={tab.urlSuffix}>
              <span className="site-manage-list__name">
                <strong>{tab.tabName}</strong> <span className="site-muted">/{tab.urlSuffix}</span>
              </span>
              <span className="site-manage-list__actions">
                <button
                  type="button"
                  className="site-button-secondary"
                  aria-label={`Delete the documentation tab ${tab.tabName}`}
                  disabled={busy}
                  onClick={() => void remove(tab)}
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </FileUpload>
  );
}
