import type { Plugin } from '@marketplace/api-client';
import { downloadWording, formatDisplayDate, formatNumber } from '@marketplace/core';
import { useState } from 'react';
import { SafeHtml } from '../../components/SafeHtml';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { VerificationForManagers } from '../verification/VerificationPanel';
import { VersionSignature } from './VersionSignature';

function channelLabel(channel: string): string {
  return channel === '' ? 'Stable' : channel;
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function VersionsTab({ plugin }: { plugin: Plugin }) {
  const [channel, setChannel] = useState('');
  const [page, setPage] = useState(1);
  const [channels] = useLoad((signal) => api.getChannels(plugin.id, { signal }), [plugin.id]);
  const [versions] = useLoad(
    (signal) => api.getVersions(plugin.id, { channel, page, size: 20 }, { signal }),
    [plugin.id, channel, page],
  );
  const channelList = channels.status === 'resolved' && channels.data.length ? channels.data : [''];
  return (
    <section aria-labelledby="versions-heading">
      <div className="site-results__head">
        <h2 id="versions-heading">Versions</h2>
        {channelList.length > 1 ? (
          <label className="site-sort">
            Channel{' '}
            <select
              value={channel}
              onChange={(event) => {
                setChannel(event.target.value);
                setPage(1);
              }}
            >
              {channelList.map((name) => (
                <option key={name} value={name}>
                  {channelLabel(name)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      {versions.status === 'rejected' ? <p className="site-error">{errorText(versions.error)}</p> : null}
      {versions.status === 'pending' ? <p className="site-muted">Loading versions…</p> : null}
      {versions.status === 'resolved' ? (
        versions.data.data.length === 0 ? (
          <p className="site-muted">No versions in this channel.</p>
        ) : (
          <table className="site-table">
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Compatibility</th>
                <th scope="col">Released</th>
                <th scope="col">
                  {downloadWording(plugin.info.family, { plural: true, capitalised: true })}
                </th>
                <th scope="col">Signature</th>
                <th scope="col">File</th>
              </tr>
            </thead>
            <tbody>
              {versions.data.data.map((version) => (
                <tr key={version.id}>
                  <td>
                    <strong>{version.version}</strong>
                    {version.channel ? <span className="site-badge">{version.channel}</span> : null}
                    {version.notes.trim() ? (
                      <details>
                        <summary>What’s new</summary>
                        <SafeHtml className="site-prose" html={version.notes} />
                      </details>
                    ) : null}
                  </td>
                  <td>
                    {version.since}
                    {' — '}
                    {version.until ?? 'any newer build'}
                  </td>
                  <td>{formatDisplayDate(version.cdate)}</td>
                  <td>{formatNumber(version.downloads)}</td>
                  <td>
                    <VersionSignature signature={version.signature} />
                  </td>
                  <td>
                    <a href={version.downloadUrl} download>
                      Download ({sizeText(version.size)})
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      {versions.status === 'resolved' && (versions.data.links.next || page > 1) ? (
        <nav className="site-pagination" aria-label="Version pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <button type="button" disabled={!versions.data.links.next} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </nav>
      ) : null}
      <VerificationForManagers pluginId={plugin.id} />
    </section>
  );
}
