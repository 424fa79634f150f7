import type { UploadedPlugin, UploadProgress } from '@marketplace/api-client';
import {
  familyLabel,
  isProductFamily,
  isValidWebsite,
  itemNoun,
  PRODUCT_FAMILIES,
  PUBLISHING_STEPS,
  type ProductFamily,
  type UploadResult,
} from '@marketplace/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { RequiredMark, RequiredNote } from '../../components/RequiredMark';
import { RequireSignIn } from '../../components/RequireSignIn';
import { TagPicker } from '../../components/TagPicker';
import { UploadProgressBar, UploadResultView } from '../../components/UploadFeedback';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { PluginStatusBlock } from './PluginStatus';

/** The new plugin's status (a draft) with its next step, Publish, right here. */
function UploadedStatus({ pluginId }: { pluginId: number }) {
  const [plugin, reload] = useLoad((signal) => api.getPlugin(pluginId, {}, { signal }), [pluginId]);
  if (plugin.status === 'pending') return <p className="site-muted">Loading its status…</p>;
  if (plugin.status === 'rejected') return <p className="site-error">{errorText(plugin.error)}</p>;
  return <PluginStatusBlock plugin={plugin.data} onChanged={reload} offer={['publish']} />;
}

function NewPluginForm() {
  const [family, setFamily] = useState<ProductFamily>('intellij');
  const [file, setFile] = useState<File | undefined>(undefined);
  const [licenseUrl, setLicenseUrl] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [touched, setTouched] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | undefined>(undefined);
  const [result, setResult] = useState<UploadResult | undefined>(undefined);
  const [failure, setFailure] = useState('');
  const [uploaded, setUploaded] = useState<UploadedPlugin | undefined>(undefined);
  const [submitting, setSubmitting] = useState(false);

  const fileError = touched && !file ? 'Choose the plugin archive (.zip or .jar).' : '';
  const licenseError = touched && !isValidWebsite(licenseUrl) ? 'Give the address of the license.' : '';
  const tagsError = touched && tags.length === 0 ? 'Choose at least one tag.' : '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!file || !isValidWebsite(licenseUrl) || tags.length === 0) return;
    setSubmitting(true);
    setFailure('');
    setResult(undefined);
    setUploaded(undefined);
    setProgress({ loaded: 0, total: file.size });
    try {
      const outcome = await api.uploadNewPlugin(
        family,
        { file, fileName: file.name, licenseUrl, tags },
        { onProgress: setProgress },
      );
      setResult(outcome.result);
      if (outcome.ok && outcome.data) setUploaded(outcome.data);
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setSubmitting(false);
      setProgress(undefined);
    }
  }

  return (
    <div className="site-page site-narrow">
      <h1>Add a new {itemNoun(family)}</h1>
      <p className="site-muted">
        Upload the archive your build produced: the marketplace reads its plugin.xml and checks it.{' '}
        {PUBLISHING_STEPS}
      </p>
      <form className="site-form" onSubmit={submit} noValidate>
        <RequiredNote />
        <label className="site-field">
          <span>
            Family
            <RequiredMark />
          </span>
          <select
            value={family}
            required
            aria-required="true"
            onChange={(event) => isProductFamily(event.target.value) && setFamily(event.target.value)}
          >
            {PRODUCT_FAMILIES.map((value) => (
              <option key={value} value={value}>
                {familyLabel(value)}
              </option>
            ))}
          </select>
        </label>
        <label className="site-field">
          <span>
            Plugin archive
            <RequiredMark />
          </span>
          <input
            type="file"
            name="file"
            accept=".zip,.jar"
            required
            aria-required="true"
            aria-invalid={Boolean(fileError)}
            onChange={(event) => setFile(event.target.files?.[0])}
          />
          {fileError ? <span className="site-field__error">{fileError}</span> : null}
        </label>
        <label className="site-field">
          <span>
            License URL
            <RequiredMark />
          </span>
          <input
            type="url"
            name="licenseUrl"
            value={licenseUrl}
            placeholder="https://github.com/you/plugin/blob/main/LICENSE"
            required
            aria-required="true"
            aria-invalid={Boolean(licenseError)}
            onChange={(event) => setLicenseUrl(event.target.value)}
          />
          {licenseError ? <span className="site-field__error">{licenseError}</span> : null}
        </label>
        <TagPicker family={family} value={tags} onChange={setTags} required error={tagsError} />
        <UploadProgressBar progress={progress} />
        <UploadResultView result={result} />
        {failure ? (
          <p className="site-error" role="alert">
            {failure}
          </p>
        ) : null}
        {uploaded ? (
          <div className="site-callout site-callout--success" role="status">
            <h3>Version {uploaded.update.version} is uploaded</h3>
            <p>
              {uploaded.name} is saved as a draft. Publish it below, or later from its{' '}
              <Link to={`/dashboard/plugin/${uploaded.id}`}>manage page</Link>.
            </p>
          </div>
        ) : null}
        {uploaded ? <UploadedStatus pluginId={uploaded.id} /> : null}
        <div className="site-form-actions">
          {uploaded ? (
            <Link className="site-button-secondary" to={`/dashboard/plugin/${uploaded.id}`}>
              Manage the plugin
            </Link>
          ) : null}
          <button type="submit" className="mp-button" disabled={submitting}>
            {submitting ? 'Uploading…' : 'Upload plugin'}
          </button>
        </div>
      </form>
    </div>
  );
}

export default function NewPluginPage() {
  usePageTitle('Add a new item');
  return <RequireSignIn>{() => <NewPluginForm />}</RequireSignIn>;
}
