import type {
  BuildBoundChange,
  BuildBoundInput,
  Plugin,
  PluginFieldsChanges,
  PluginTagsInput,
  PluginVersion,
  UploadProgress,
} from '@marketplace/api-client';
import {
  CHANGE_REASONS,
  isChangeReason,
  itemNoun,
  parseBuildNumber,
  PRICING_MODELS,
  pricingModelLabel,
  tagsForUpdate,
  uploadedVersionNote,
  type ChangeReason,
  type UploadResult,
} from '@marketplace/core';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { RequiredMark, RequiredNote } from '../../components/RequiredMark';
import { RequireSignIn } from '../../components/RequireSignIn';
import { TagPicker } from '../../components/TagPicker';
import { UploadProgressBar, UploadResultView } from '../../components/UploadFeedback';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { PluginVerification } from '../verification/VerificationPanel';
import { CompatibleProductsBlock } from './CompatibleProductsBlock';
import { DevelopersBlock } from './DevelopersBlock';
import { LinksBlock } from './LinksBlock';
import { Block, useSave } from './manage-parts';
import { DocumentationTabsBlock, IconBlock, ScreenshotsBlock } from './MediaBlocks';
import { PluginStatusBlock } from './PluginStatus';
import { SectionTabs } from './SectionTabs';
import { VersionScanNotice } from './VersionScanNotice';

/** The plugin fields the details form edits, each as text (all of them keys of PluginFieldsChanges). */
type EditedField = 'name' | 'preview' | 'description' | 'pricingModel';

const CHANGE_REASON_LABELS: Readonly<Record<ChangeReason, string>> = {
  INCORRECT_BUILD_NUMBER: 'The build number was wrong',
  COMPATIBILITY_ERRORS: 'It does not work with these builds',
  OTHER: 'Another reason',
};

function NewVersion({ plugin, onUploaded }: { plugin: Plugin; onUploaded: () => void }) {
  const [file, setFile] = useState<File | undefined>(undefined);
  const [channel, setChannel] = useState('');
  const [notes, setNotes] = useState('');
  const [progress, setProgress] = useState<UploadProgress | undefined>(undefined);
  const [result, setResult] = useState<UploadResult | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [failure, setFailure] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return setFailure('Choose the archive of the new version.');
    setFailure('');
    setMessage('');
    setResult(undefined);
    setProgress({ loaded: 0, total: file.size });
    try {
      const outcome = await api.uploadVersion(
        {
          pluginId: plugin.id,
          file,
          fileName: file.name,
          channel: channel.trim(),
          ...(notes.trim() ? { notes } : {}),
        },
        { onProgress: setProgress },
      );
      setResult(outcome.result);
      if (outcome.ok) {
        const note = plugin.lifecycle ? ` ${uploadedVersionNote(plugin.lifecycle)}` : '';
        setMessage(`Version ${outcome.data?.version ?? ''} is uploaded.${note}`);
        onUploaded();
      }
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setProgress(undefined);
    }
  }

  return (
    <Block title="Upload a new version">
      <form className="site-form" onSubmit={submit} noValidate>
        <label className="site-field">
          <span>
            Archive
            <RequiredMark />
          </span>
          <input
            type="file"
            name="file"
            accept=".zip,.jar"
            required
            aria-required="true"
            onChange={(event) => setFile(event.target.files?.[0])}
          />
        </label>
        <label className="site-field">
          <span>Channel (empty for stable)</span>
          <input
            name="channel"
            value={channel}
            maxLength={100}
            onChange={(event) => setChannel(event.target.value)}
          />
        </label>
        <label className="site-field">
          <span>Change notes</span>
          <textarea name="notes" rows={3} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </label>
        <UploadProgressBar progress={progress} />
        <UploadResultView result={result} />
        {failure ? (
          <p className="site-error" role="alert">
            {failure}
          </p>
        ) : null}
        {message ? (
          <p className="site-callout site-callout--success" role="status">
            {message}
          </p>
        ) : null}
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={progress !== undefined}>
            Upload version
          </button>
        </div>
      </form>
    </Block>
  );
}

function Fields({ plugin, onSaved }: { plugin: Plugin; onSaved: () => void }) {
  const { busy, save } = useSave();
  const [fields, setFields] = useState({
    name: plugin.info.name,
    preview: plugin.info.preview,
    description: plugin.info.description,
    pricingModel: plugin.info.pricingModel,
  } as Record<EditedField, string>);
  const set = (key: EditedField) => (value: string) =>
    setFields((previous) => ({ ...previous, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body: PluginFieldsChanges = {};
    for (const [key, value] of Object.entries(fields) as [EditedField, string][]) body[key] = value.trim();
    if (
      await save('Details', () =>
        api.request({ method: 'PUT', path: `/api/plugins/${plugin.id}`, json: body }),
      )
    )
      onSaved();
  }

  return (
    <Block title="Details">
      <form className="site-form" onSubmit={submit}>
        <label className="site-field">
          <span>
            Name
            <RequiredMark />
          </span>
          <input
            required
            aria-required="true"
            maxLength={255}
            value={fields.name ?? ''}
            onChange={(event) => set('name')(event.target.value)}
          />
        </label>
        <label className="site-field">
          <span>Short description</span>
          <input
            maxLength={2000}
            value={fields.preview ?? ''}
            onChange={(event) => set('preview')(event.target.value)}
          />
        </label>
        <label className="site-field">
          <span>Description (HTML)</span>
          <textarea
            rows={8}
            value={fields.description ?? ''}
            onChange={(event) => set('description')(event.target.value)}
          />
        </label>
        <label className="site-field">
          <span>Pricing</span>
          <select
            value={fields.pricingModel ?? 'FREE'}
            onChange={(event) => set('pricingModel')(event.target.value)}
          >
            {PRICING_MODELS.map((model) => (
              <option key={model} value={model}>
                {pricingModelLabel(model)}
              </option>
            ))}
          </select>
        </label>
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={busy}>
            Save details
          </button>
        </div>
      </form>
    </Block>
  );
}

/** The item's tags, picked from the catalogue's tags of its family; privileged ones by administrators only. */
function TagsBlock({ plugin, isAdmin, onSaved }: { plugin: Plugin; isAdmin: boolean; onSaved: () => void }) {
  const { busy, save } = useSave();
  const [chosen, setChosen] = useState(() => plugin.tags.map((tag) => tag.name));
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (
      await save('Tags', () =>
        api.request({
          method: 'POST',
          path: `/api/plugins/${plugin.id}/tags`,
          json: tagsForUpdate(chosen) satisfies PluginTagsInput,
        }),
      )
    )
      onSaved();
  }
  return (
    <Block title="Tags">
      <form className="site-form" onSubmit={submit} aria-label="Tags">
        <TagPicker
          family={plugin.info.family}
          value={chosen}
          onChange={setChosen}
          allowPrivileged={isAdmin}
        />
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={busy}>
            Save tags
          </button>
        </div>
      </form>
    </Block>
  );
}

function BuildRange({ version, onSaved }: { version: PluginVersion; onSaved: () => void }) {
  const { busy, save } = useSave();
  const [since, setSince] = useState(version.since);
  const [until, setUntil] = useState(version.until ?? '');
  const [reason, setReason] = useState<ChangeReason>('INCORRECT_BUILD_NUMBER');
  const [error, setError] = useState('');
  async function submit(event: FormEvent) {
    event.preventDefault();
    for (const value of [since, until]) {
      if (value.trim() !== '' && !parseBuildNumber(value.trim()))
        return setError(`"${value}" is not a build number (e.g. 241 or 243.*).`);
    }
    setError('');
    const ok = await save(`Compatibility of ${version.version}`, async () => {
      for (const [bound, value] of [
        ['since', since],
        ['until', until],
      ] as const) {
        await api.request({
          method: 'PUT',
          path: `/api/updates/${version.id}/${bound}`,
          query: { value: value.trim() } satisfies BuildBoundInput,
          json: { reason } satisfies BuildBoundChange,
        });
      }
    });
    if (ok) onSaved();
  }
  return (
    <form
      className="site-inline-form site-build-range"
      onSubmit={submit}
      aria-label={`Compatibility of version ${version.version}`}
    >
      <strong>{version.version}</strong>
      <label>
        Since <input value={since} size={12} onChange={(event) => setSince(event.target.value)} />
      </label>
      <label>
        Until{' '}
        <input value={until} size={12} placeholder="any" onChange={(event) => setUntil(event.target.value)} />
      </label>
      <label>
        Why{' '}
        <select
          value={reason}
          onChange={(event) => isChangeReason(event.target.value) && setReason(event.target.value)}
        >
          {CHANGE_REASONS.map((value) => (
            <option key={value} value={value}>
              {CHANGE_REASON_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="site-button-secondary" disabled={busy}>
        Save
      </button>
      {error ? <span className="site-field__error">{error}</span> : null}
    </form>
  );
}

/**
 * The sections of the manage page, in tab order; the first, where a developer comes most often (a new
 * version), is where the page opens. The item's status and its lifecycle actions stand above them all.
 */
export const MANAGE_SECTIONS = [
  ['versions', 'Versions & compatibility'],
  ['details', 'Details'],
  ['links', 'Links'],
  ['media', 'Media'],
  ['people', 'Developers'],
  ['selling', 'Selling'],
  ['verification', 'Verification'],
] as const;
export type ManageSection = (typeof MANAGE_SECTIONS)[number][0];

/** How soon the versions tab asks again while a version's scan is running. */
const SCAN_RECHECK_MS = 3000;

function Manage({ pluginId, isAdmin }: { pluginId: number; isAdmin: boolean }) {
  const [plugin, reload] = useLoad((signal) => api.getPlugin(pluginId, {}, { signal }), [pluginId]);
  const [versions, reloadVersions] = useLoad(
    (signal) => api.getVersions(pluginId, { size: 10 }, { signal }),
    [pluginId],
  );
  // Versions scanning holds back or an administrator decided on, with what was found (one call for all).
  const [scans, reloadScans] = useLoad((signal) => api.scanning.ofPlugin(pluginId, { signal }), [pluginId]);
  const scanOf = (versionId: number) =>
    scans.status === 'resolved'
      ? scans.data.versions.find((scan) => scan.versionId === versionId)
      : undefined;
  // A scan normally ends within moments of the upload: look again until none is running any more.
  const scanRunning =
    scans.status === 'resolved' &&
    scans.data.versions.some((scan) => scan.state === 'pending' && scan.job?.state !== 'failed');
  useEffect(() => {
    if (!scanRunning) return;
    const timer = setTimeout(reloadScans, SCAN_RECHECK_MS);
    return () => clearTimeout(timer);
  }, [scans]);
  usePageTitle(plugin.status === 'resolved' ? `Manage ${plugin.data.info.name}` : 'Manage item');
  if (plugin.status === 'pending') return <p className="site-page site-muted">Loading…</p>;
  if (plugin.status === 'rejected') {
    return (
      <div className="site-message" role="alert">
        {/* The family, and so the item's noun, is not known when the item did not load. */}
        <h1>This item could not be loaded</h1>
        <p>{errorText(plugin.error)}</p>
      </div>
    );
  }
  const data = plugin.data;
  const noun = itemNoun(data.info.family);
  const content: Record<ManageSection, ReactNode> = {
    details: (
      <>
        <RequiredNote />
        <Fields key={`fields-${data.info.name}`} plugin={data} onSaved={reload} />
        <TagsBlock
          key={`tags-${data.tags.map((tag) => tag.name).join(',')}`}
          plugin={data}
          isAdmin={isAdmin}
          onSaved={reload}
        />
      </>
    ),
    links: <LinksBlock key={`links-${JSON.stringify(data.urls)}`} plugin={data} onSaved={reload} />,
    versions: (
      <>
        <RequiredNote />
        <NewVersion
          plugin={data}
          onUploaded={() => {
            reload();
            reloadVersions();
            reloadScans();
          }}
        />
        <CompatibleProductsBlock plugin={data} />
        <Block title="Versions and their build ranges">
          {versions.status === 'resolved' && versions.data.data.length === 0 ? (
            <p className="site-muted">The {noun} has no versions yet.</p>
          ) : null}
          {versions.status === 'resolved'
            ? versions.data.data.map((version) => {
                const scan = scanOf(version.id);
                return (
                  <div key={version.id}>
                    <BuildRange version={version} onSaved={reloadVersions} />
                    {scan ? <VersionScanNotice version={version.version} status={scan} /> : null}
                  </div>
                );
              })
            : null}
          {versions.status === 'rejected' ? <p className="site-error">{errorText(versions.error)}</p> : null}
          {scans.status === 'rejected' ? (
            <p className="site-error">
              The scans of the versions could not be read: {errorText(scans.error)}
            </p>
          ) : null}
        </Block>
      </>
    ),
    media: (
      <>
        <RequiredNote />
        <IconBlock plugin={data} onChanged={reload} />
        <ScreenshotsBlock
          key={`screenshots-${data.screenshots.map((screenshot) => screenshot.url).join(',')}`}
          plugin={data}
          onChanged={reload}
        />
        <DocumentationTabsBlock
          key={`tabs-${data.customTabs.map((tab) => tab.urlSuffix).join(',')}`}
          plugin={data}
          onChanged={reload}
        />
      </>
    ),
    people: <DevelopersBlock pluginId={data.id} />,
    selling: (
      <Block title="Selling">
        <p className="site-muted">
          {data.info.pricingModel === 'FREE'
            ? `To sell this ${noun}, apply to sell and set its prices first; then change its pricing under Details to ${pricingModelLabel('PAID')} or ${pricingModelLabel('FREEMIUM')}.`
            : 'Prices, trial, discounts, offers and coupons, and program applications.'}
        </p>
        <div className="site-form-actions">
          <Link className="mp-button" to={`/dashboard/plugin/${data.id}/selling`}>
            Selling
          </Link>
        </div>
      </Block>
    ),
    verification: <PluginVerification pluginId={data.id} />,
  };
  return (
    <div className="site-page site-narrow">
      <p>
        <Link to="/dashboard">← My items</Link> ·{' '}
        <Link to={`/dashboard/plugin/${data.id}/custom-pages`}>Custom pages</Link>
      </p>
      <h1>
        Manage {data.info.name}{' '}
        <Link to={data.info.link} className="site-title-link">
          Open page
        </Link>
      </h1>
      <PluginStatusBlock plugin={data} onChanged={reload} />
      <SectionTabs
        label={`Manage the ${noun}`}
        sections={MANAGE_SECTIONS.map(([id, label]) => ({ id, label, content: content[id] }))}
      />
    </div>
  );
}

export default function EditPluginPage() {
  const { pluginId = '' } = useParams();
  const id = /^\d{1,10}$/.test(pluginId) ? Number(pluginId) : undefined;
  return (
    <RequireSignIn>
      {(user) =>
        id === undefined ? (
          <p className="site-page site-error">There is no item {pluginId}.</p>
        ) : (
          <Manage pluginId={id} isAdmin={user.isAdmin} />
        )
      }
    </RequireSignIn>
  );
}
