import type { UploadProgress } from '@marketplace/api-client';
import type { UploadResult } from '@marketplace/core';

export function UploadProgressBar({ progress }: { progress: UploadProgress | undefined }) {
  if (!progress) return null;
  const percent = progress.total ? Math.round((progress.loaded / progress.total) * 100) : undefined;
  return (
    <div className="site-progress">
      <progress max={100} value={percent} aria-label="Upload progress" />
      <span>{percent === undefined ? 'Uploading…' : `${percent}%`}</span>
    </div>
  );
}

/** The validation result of an upload (spec §5): errors refuse it, warnings are reported only. */
export function UploadResultView({ result }: { result: UploadResult | undefined }) {
  if (!result || (result.errors.length === 0 && result.warnings.length === 0)) return null;
  return (
    <div className="site-upload-result">
      {result.errors.length ? (
        <div className="site-callout site-callout--error" role="alert">
          <h3>The upload was refused</h3>
          <ul>
            {result.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {result.warnings.length ? (
        <div className="site-callout site-callout--warning" role="status">
          <h3>Warnings</h3>
          <ul>
            {result.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
