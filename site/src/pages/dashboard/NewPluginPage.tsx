import type { UploadedPlugin, UploadProgress } from '@marketplace/api-client';
import {
  familyLabel,
  isProductFamily,
  isValidWebsite,
  PRODUCT_FAMILIES,
  type ProductFamily,
  type UploadResult,
} from '@marketplace/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { UploadProgressBar, UploadResultView } from '../../components/UploadFeedback';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';

function NewPluginForm() {
  const [family, setFamily] = useState<ProductFamily>('intellij');
  const [file, setFile] = useState<File | undefined>(undefined);
  const [licenseUrl, setLicenseUrl] = useState('');
  const [tags, setTags] = useState('');
  const [touched, setTouched] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | undefined>(undefined);
  const [result, setResult] = useState<UploadResult | undefined>(undefined);
  const [failure, setFailure] = useState('');
  const [uploaded, setUploaded] = useState<UploadedPlugin | undefined>(undefined);
  const [submitting, setSubmitting] = useState(false);

  const fileError = touched && !file ? 'Choose the plugin archive (.zip or .jar).' : '';
  const licenseError = touched && !isValidWebsite(licenseUrl) ? 'Give the address of the license.' : '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!file || !isValidWebsite(licenseUrl)) return;
    setSubmitting(true);
    setFailure('');
    setResult(undefined);
    setUploaded(undefined);
    setProgress({ loaded: 0, total: file.size });
    try {
      const outcome = await api.uploadNewPlugin(
        family,
        {
          file,
          fileName: file.name,
          licenseUrl,
          tags: tags
            .split(',')
            .map((tag) => tag.trim())
            .filter(Boolean),
        },
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
      <h1>Add a new plugin</h1>
      <p className="site-muted">
        Upload the archive your build produced. The marketplace reads its plugin.xml and checks it before
        publishing; new plugins are visible to everyone once an administrator approves them.
      </p>
      <form className="site-form" onSubmit={submit} noValidate>
        <label className="site-field">
          <span>Family</span>
          <select
            value={family}
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
          <span>Plugin archive</span>
          <input
            type="file"
            name="file"
            accept=".zip,.jar"
            aria-invalid={Boolean(fileError)}
            onChange={(event) => setFile(event.target.files?.[0])}
          />
          {fileError ? <span className="site-field__error">{fileError}</span> : null}
        </label>
        <label className="site-field">
          <span>License URL</span>
          <input
            type="url"
            name="licenseUrl"
            value={licenseUrl}
            placeholder="https://github.com/you/plugin/blob/main/LICENSE"
            aria-invalid={Boolean(licenseError)}
            onChange={(event) => setLicenseUrl(event.target.value)}
          />
          {licenseError ? <span className="site-field__error">{licenseError}</span> : null}
        </label>
        <label className="site-field">
          <span>Tags (comma-separated)</span>
          <input name="tags" value={tags} onChange={(event) => setTags(event.target.value)} />
        </label>
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
              <Link to={`/dashboard/plugin/${uploaded.id}`}>Manage the plugin</Link> — it waits for an
              administrator’s approval before it appears in search.
            </p>
          </div>
        ) : null}
        <div className="site-form-actions">
          <button type="submit" className="mp-button" disabled={submitting}>
            {submitting ? 'Uploading…' : 'Upload plugin'}
          </button>
        </div>
      </form>
    </div>
  );
}

export default function NewPluginPage() {
  usePageTitle('Add a new plugin');
  return <RequireSignIn>{() => <NewPluginForm />}</RequireSignIn>;
}
