import type { CustomPage, CustomPageImage, CustomPageListItem, RenderedPage } from '@marketplace/api-client';
import { buildPageTree, flattenPageTree, pageUrlOf, pageUrlProblem } from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { loadSanitizer, SafeHtml } from '../../components/SafeHtml';
import { api } from '../../lib/api';
import { errorText, showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { TableOfContents } from '../plugin/custom-pages/TableOfContents';

// The page shows HTML as soon as its data comes: the sanitiser's code loads beside it, not after.
void loadSanitizer();

const STATUS_LABELS = { DRAFT: 'Draft', PUBLISH: 'Published', WEBHELP: 'Published webhelp' } as const;

/** Runs a change, saying how it went in a toast; resolves to its result, or undefined when it failed. */
function useChange() {
  const toasts = useToasts();
  return async <T,>(what: string, change: () => Promise<T>): Promise<T | undefined> => {
    try {
      const result = await change();
      toasts?.show({ kind: 'success', title: what });
      return result;
    } catch (error) {
      showErrorToast(toasts, error);
      return undefined;
    }
  };
}

/** The editor's live preview: the server renders and sanitises exactly as for the published page. */
function usePreview(pluginId: number, markdown: string, generateToc: boolean): RenderedPage | undefined {
  const [preview, setPreview] = useState<RenderedPage | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.customPages
        .preview(pluginId, markdown, generateToc, { signal: controller.signal })
        .then(setPreview, () => undefined);
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [pluginId, markdown, generateToc]);
  return preview;
}

function NewPage({ pluginId, onCreated }: { pluginId: number; onCreated: (page: CustomPage) => void }) {
  const change = useChange();
  const [name, setName] = useState('');
  const [type, setType] = useState<'custom-page' | 'webhelp'>('custom-page');
  async function submit(event: FormEvent) {
    event.preventDefault();
    const created = await change('Page created', () => api.customPages.create(pluginId, { name, type }));
    if (created) {
      setName('');
      onCreated(created);
    }
  }
  return (
    <form className="site-form site-custom-pages-editor__new" onSubmit={submit}>
      <label className="site-field">
        <span>New page name</span>
        <input
          name="new-page-name"
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      <label className="site-field">
        <span>Kind</span>
        <select
          name="new-page-type"
          value={type}
          onChange={(event) => setType(event.target.value === 'webhelp' ? 'webhelp' : 'custom-page')}
        >
          <option value="custom-page">Markdown page</option>
          <option value="webhelp">Webhelp (a zip of a documentation site)</option>
        </select>
      </label>
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={name.trim() === ''}>
          Add page
        </button>
      </div>
    </form>
  );
}

function Editor({
  pluginId,
  page,
  pages,
  onChanged,
}: {
  pluginId: number;
  page: CustomPage;
  pages: readonly CustomPageListItem[];
  onChanged: (page: CustomPage | undefined) => void;
}) {
  const change = useChange();
  // A published page is edited through its draft: the form starts from the saved changes, if any.
  const edited = page.draft ?? page;
  const [name, setName] = useState(edited.name);
  const [url, setUrl] = useState(edited.url);
  const [parentId, setParentId] = useState<number | null>(page.parentId);
  const [markdown, setMarkdown] = useState(edited.originalContent);
  const [generateToc, setGenerateToc] = useState(edited.generateToc);
  const [zip, setZip] = useState<File | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [webhelpPreview, setWebhelpPreview] = useState<string | undefined>(undefined);
  const [images, reloadImages] = useLoad(
    (signal) => api.customPages.listImages(pluginId, page.id, { signal }),
    [pluginId, page.id],
  );
  const isWebhelp = page.type === 'webhelp';
  const published = page.status !== 'DRAFT';
  const preview = usePreview(pluginId, isWebhelp ? '' : markdown, generateToc);
  const urlProblem = url === page.url || url === page.draft?.url ? undefined : pageUrlProblem(url);

  // A page cannot go under itself or one of its own sub-pages.
  const below = new Set<number>([page.id]);
  for (const candidate of pages)
    if (candidate.parentId !== null && below.has(candidate.parentId)) below.add(candidate.id);
  const parents = flattenPageTree(buildPageTree(pages)).filter((candidate) => !below.has(candidate.id));

  async function run(what: string, action: () => Promise<CustomPage | void>) {
    setBusy(true);
    const result = await change(what, async () => ({ page: await action() }));
    setBusy(false);
    if (result !== undefined) onChanged(result.page || undefined);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    await run(
      published ? 'Draft saved: visitors see the published version until you publish it' : 'Page saved',
      () =>
        api.customPages.update(pluginId, page.id, {
          name,
          url,
          parentId,
          generateToc,
          ...(isWebhelp ? {} : { originalContent: markdown }),
        }),
    );
  }

  async function addImage(file: File | undefined) {
    if (!file) return;
    const image = await change('Image uploaded', () =>
      api.customPages.uploadImage(pluginId, page.id, file, file.name),
    );
    if (image) {
      const alt = file.name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '');
      setMarkdown(
        (text) => `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}\n![${alt}](${image.url})\n`,
      );
      reloadImages();
    }
  }

  /** Deletes an image and drops it from the Markdown being edited (saved with the next Save). */
  async function removeImage(image: CustomPageImage) {
    if (!window.confirm(`Delete the image “${image.name}”?`)) return;
    const done = await change('Image deleted', async () => {
      await api.customPages.removeImage(pluginId, page.id, image.id);
      return true;
    });
    if (!done) return;
    const escaped = image.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    setMarkdown((text) => text.replace(new RegExp(`!\\[[^\\]]*\\]\\(${escaped}\\)\\n?`, 'g'), ''));
    reloadImages();
  }

  async function openWebhelpPreview() {
    setWebhelpPreview(undefined);
    const answer = await change('Preview ready', () => api.customPages.previewWebhelp(pluginId, page.id));
    if (answer) setWebhelpPreview(answer.url);
  }
  return (
    <section className="site-card-block site-custom-pages-editor" aria-labelledby="page-editor-heading">
      <h2 id="page-editor-heading">
        {page.name} <span className="site-badge">{STATUS_LABELS[page.status]}</span>
        {page.draft ? (
          <>
            {' '}
            <span className="site-badge site-badge--warning">Unpublished changes</span>
          </>
        ) : null}
      </h2>
      {page.draft ? (
        <div className="site-message" role="status" aria-label="Draft">
          <p>
            Changes saved {new Date(page.draft.updatedAt).toLocaleString()} are not published yet: visitors
            see the published version
            {page.draft.url !== page.url
              ? ` (at /${page.url}; the new address /${page.draft.url} applies on publishing)`
              : ''}
            {page.draft.webhelpFiles > 0 ? `; a new zip of ${page.draft.webhelpFiles} files waits` : ''}.
          </p>
          {isWebhelp ? null : (
            <details>
              <summary>The published version</summary>
              <TableOfContents toc={page.toc} />
              <SafeHtml className="site-prose" html={page.content} />
            </details>
          )}
          <div className="site-form-actions">
            <button
              type="button"
              className="mp-button"
              disabled={busy}
              onClick={() =>
                void run('Changes published', () => api.customPages.setPublished(pluginId, page.id, true))
              }
            >
              Publish changes
            </button>
            <button
              type="button"
              className="site-button-secondary"
              disabled={busy}
              onClick={() => {
                if (!window.confirm('Discard the unpublished changes? Visitors’ version stays as it is.'))
                  return;
                void run('Changes discarded', () => api.customPages.discardDraft(pluginId, page.id));
              }}
            >
              Discard changes
            </button>
          </div>
        </div>
      ) : null}
      <form className="site-form" onSubmit={save} noValidate>
        <label className="site-field">
          <span>Name</span>
          <input
            name="page-name"
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label className="site-field">
          <span>URL</span>
          <input
            name="page-url"
            value={url}
            maxLength={64}
            onChange={(event) => setUrl(event.target.value)}
          />
          {urlProblem ? <span className="site-field__error">{urlProblem}</span> : null}
          {name && url !== pageUrlOf(name) ? (
            <button type="button" className="site-link-button" onClick={() => setUrl(pageUrlOf(name))}>
              Use “{pageUrlOf(name)}”
            </button>
          ) : null}
        </label>
        <label className="site-field">
          <span>Parent page</span>
          <select
            name="page-parent"
            value={parentId ?? ''}
            onChange={(event) => setParentId(event.target.value === '' ? null : Number(event.target.value))}
          >
            <option value="">(top level)</option>
            {parents.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {'\u2003'.repeat(candidate.depth - 1)}
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        {isWebhelp ? null : (
          <>
            <label className="site-checkbox">
              <input
                type="checkbox"
                name="page-toc"
                checked={generateToc}
                onChange={(event) => setGenerateToc(event.target.checked)}
              />{' '}
              Table of contents from the headings
            </label>
            <div className="site-custom-pages-editor__panes">
              <label className="site-field">
                <span>Markdown</span>
                <textarea
                  name="page-markdown"
                  rows={18}
                  value={markdown}
                  onChange={(event) => setMarkdown(event.target.value)}
                />
              </label>
              <div className="site-custom-pages-editor__preview" aria-label="Preview" role="region">
                {preview ? (
                  <>
                    <TableOfContents toc={preview.toc} />
                    <SafeHtml className="site-prose" html={preview.content} />
                  </>
                ) : (
                  <p className="site-muted">Preview…</p>
                )}
              </div>
            </div>
            <label className="site-field">
              <span>Add an image (PNG, JPEG, GIF or WebP)</span>
              <input
                type="file"
                name="page-image"
                accept="image/png,image/jpeg,image/gif,image/webp"
                onChange={(event) => {
                  void addImage(event.target.files?.[0]);
                  event.target.value = '';
                }}
              />
            </label>
            {images.status === 'resolved' && images.data.length > 0 ? (
              <ul className="site-custom-pages-editor__list" aria-label="Images">
                {images.data.map((image) => (
                  <li key={image.id}>
                    <a href={image.url} target="_blank" rel="noopener noreferrer">
                      {image.name}
                    </a>{' '}
                    <span className="site-muted">{Math.max(1, Math.round(image.size / 1024))} KB</span>{' '}
                    <button
                      type="button"
                      className="site-link-button"
                      aria-label={`Delete image ${image.name}`}
                      onClick={() => void removeImage(image)}
                    >
                      Delete
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        )}
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={busy || urlProblem !== undefined}>
            {published ? 'Save draft' : 'Save'}
          </button>
          <button
            type="button"
            className="site-button-secondary"
            disabled={busy}
            onClick={() =>
              void run(published ? 'Page unpublished' : 'Page published', () =>
                api.customPages.setPublished(pluginId, page.id, !published),
              )
            }
          >
            {published ? 'Unpublish' : 'Publish'}
          </button>
          <button
            type="button"
            className="site-button-secondary"
            disabled={busy}
            onClick={() => {
              if (!window.confirm(`Delete the page “${page.name}”? Its sub-pages move up.`)) return;
              void run('Page deleted', () => api.customPages.remove(pluginId, page.id));
            }}
          >
            Delete
          </button>
        </div>
      </form>
      {isWebhelp ? (
        <form
          className="site-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (zip)
              void run('Webhelp uploaded', () =>
                api.customPages.uploadWebhelp(pluginId, page.id, zip, zip.name),
              );
          }}
        >
          <p className="site-muted">
            {page.webhelpFiles > 0
              ? `${page.webhelpFiles} files uploaded. `
              : 'Upload the zip your documentation tool built (with index.html). '}
            {page.webhelpUrl && published ? (
              <a href={page.webhelpUrl} target="_blank" rel="noopener noreferrer">
                Open the published one
              </a>
            ) : null}
          </p>
          {page.webhelpFiles > 0 || (page.draft?.webhelpFiles ?? 0) > 0 ? (
            <p>
              <button
                type="button"
                className="site-button-secondary"
                disabled={busy}
                onClick={() => void openWebhelpPreview()}
              >
                Preview {page.draft?.webhelpFiles ? 'the new zip' : published ? 'it' : 'before publishing'}
              </button>{' '}
              {webhelpPreview ? (
                <a href={webhelpPreview} target="_blank" rel="noopener noreferrer">
                  Open the preview
                </a>
              ) : null}
              {webhelpPreview ? (
                <span className="site-muted"> (works for an hour; only for this item’s people)</span>
              ) : null}
            </p>
          ) : null}
          <label className="site-field">
            <span>Webhelp zip</span>
            <input
              type="file"
              name="webhelp-zip"
              accept=".zip"
              onChange={(event) => setZip(event.target.files?.[0])}
            />
          </label>
          <div className="site-form-actions">
            <button type="submit" className="site-button-secondary" disabled={busy || !zip}>
              Upload webhelp
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

function PageList({
  pluginId,
  pages,
  selected,
  onSelect,
  onArranged,
}: {
  pluginId: number;
  pages: readonly CustomPageListItem[];
  selected: number | undefined;
  onSelect: (pageId: number) => void;
  onArranged: () => void;
}) {
  const change = useChange();
  const ordered = flattenPageTree(buildPageTree(pages));

  /** Moves a page one place up or down among its siblings, keeping every other page where it is. */
  async function move(pageId: number, step: -1 | 1) {
    const page = ordered.find((candidate) => candidate.id === pageId);
    if (!page) return;
    const siblings = ordered.filter((candidate) => candidate.parentId === page.parentId);
    const index = siblings.findIndex((candidate) => candidate.id === pageId);
    const other = siblings[index + step];
    if (!other) return;
    const position = new Map(ordered.map((candidate) => [candidate.id, candidate.position]));
    position.set(page.id, other.position);
    position.set(other.id, page.position);
    const rearranged = flattenPageTree(
      buildPageTree(
        ordered.map((candidate) => ({ ...candidate, position: position.get(candidate.id) ?? 0 })),
      ),
    );
    const done = await change('Order saved', () =>
      api.customPages.arrange(
        pluginId,
        rearranged.map((candidate) => ({ id: candidate.id, parentId: candidate.parentId })),
      ),
    );
    if (done) onArranged();
  }

  if (ordered.length === 0) return <p className="site-muted">No pages yet.</p>;
  return (
    <ol className="site-custom-pages-editor__list" aria-label="Pages">
      {ordered.map((page) => (
        <li key={page.id} style={{ paddingInlineStart: `${(page.depth - 1) * 1.5}rem` }}>
          <button
            type="button"
            className="site-link-button"
            aria-current={page.id === selected ? 'true' : undefined}
            onClick={() => onSelect(page.id)}
          >
            {page.name}
          </button>{' '}
          <span className="site-muted">/{page.url}</span>{' '}
          <span className="site-badge">{STATUS_LABELS[page.status]}</span>{' '}
          {page.hasDraft ? (
            <>
              <span className="site-badge site-badge--warning">Unpublished changes</span>{' '}
            </>
          ) : null}
          <button
            type="button"
            className="site-link-button"
            aria-label={`Move ${page.name} up`}
            onClick={() => void move(page.id, -1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="site-link-button"
            aria-label={`Move ${page.name} down`}
            onClick={() => void move(page.id, 1)}
          >
            ↓
          </button>
        </li>
      ))}
    </ol>
  );
}

function Manage({ pluginId }: { pluginId: number }) {
  const [plugin] = useLoad((signal) => api.getPlugin(pluginId, {}, { signal }), [pluginId]);
  const [pages, reloadPages] = useLoad((signal) => api.customPages.list(pluginId, { signal }), [pluginId]);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [page, reloadPage] = useLoad(
    (signal) =>
      selected === undefined
        ? Promise.resolve(undefined)
        : api.customPages.get(pluginId, selected, { signal }),
    [pluginId, selected],
  );
  const name = plugin.status === 'resolved' ? plugin.data.info.name : undefined;
  usePageTitle(name ? `Custom pages of ${name}` : 'Custom pages');

  if (pages.status === 'rejected') {
    return (
      <div className="site-message" role="alert">
        <h1>The pages could not be loaded</h1>
        <p>{errorText(pages.error)}</p>
      </div>
    );
  }
  const current = page.status === 'resolved' && page.data?.id === selected ? page.data : undefined;
  return (
    <div className="site-page site-custom-pages-editor__page">
      <p>
        <Link to={`/dashboard/plugin/${pluginId}`}>← Manage {name ?? 'the item'}</Link>
        {plugin.status === 'resolved' ? (
          <>
            {' · '}
            <Link to={`${plugin.data.info.link}/custom-pages`}>Custom pages tab</Link>
          </>
        ) : null}
      </p>
      <h1>Custom pages{name ? ` of ${name}` : ''}</h1>
      <p className="site-muted">
        Pages written in Markdown (HTML in it is cleaned, scripts removed), or webhelp sites uploaded as a
        zip. Published pages appear on the item’s Custom pages tab.
      </p>
      <div className="site-custom-pages-editor__layout">
        <div>
          {pages.status === 'pending' ? (
            <p className="site-muted">Loading…</p>
          ) : (
            <PageList
              pluginId={pluginId}
              pages={pages.data}
              selected={selected}
              onSelect={setSelected}
              onArranged={reloadPages}
            />
          )}
          <NewPage
            pluginId={pluginId}
            onCreated={(created) => {
              reloadPages();
              setSelected(created.id);
            }}
          />
        </div>
        {current && pages.status === 'resolved' ? (
          <Editor
            key={`${current.id}-${current.updatedAt}-${current.status}-${current.webhelpFiles}-${current.draft?.updatedAt ?? 0}`}
            pluginId={pluginId}
            page={current}
            pages={pages.data}
            onChanged={(changed) => {
              reloadPages();
              if (changed) reloadPage();
              else setSelected(undefined);
            }}
          />
        ) : null}
      </div>
    </div>
  );
}

/** The vendor's editor of an item's custom pages: /dashboard/plugin/{id}/custom-pages. */
export default function CustomPagesPage() {
  const { pluginId = '' } = useParams();
  const id = Number(pluginId);
  if (!Number.isSafeInteger(id) || id <= 0) return <p className="site-page">There is no such item.</p>;
  return <RequireSignIn>{() => <Manage pluginId={id} />}</RequireSignIn>;
}
