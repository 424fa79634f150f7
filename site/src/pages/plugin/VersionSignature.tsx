import type { PluginVersion } from '@marketplace/api-client';
import { Link } from 'react-router';
import '../../styles/signatures.css';

/** Where the site shows the marketplace's certificate and how to trust it in the IDE. */
export const CERTIFICATE_PAGE = '/trust/certificate';

function commonName(subject: string): string {
  const line = subject.split('\n').find((part) => part.startsWith('CN='));
  return line ? line.slice(3) : subject.replace(/\n/g, ', ');
}

/** What the upload found wrong with the author's certificate, in the words a person reads on the page. */
function caveats(author: NonNullable<NonNullable<PluginVersion['signature']>['author']>): string[] {
  return [
    ...(author.selfSigned ? ['self-signed'] : []),
    ...(author.expired ? ['certificate expired'] : []),
    ...(author.notYetValid ? ['certificate not yet valid'] : []),
    ...(!author.chainComplete && !author.selfSigned ? ['incomplete chain'] : []),
  ];
}

/**
 * A version's signatures, on the versions tab: who signed the archive (the author's certificate, with its
 * chain and fingerprint on demand) and whether this marketplace countersigned the file offered for download.
 */
export function VersionSignature({ signature }: { signature: PluginVersion['signature'] }) {
  if (!signature) {
    return (
      <span
        className="site-muted"
        title="Uploaded before this marketplace checked signatures, or mirrored from another marketplace."
      >
        Signature not checked
      </span>
    );
  }
  const { author } = signature;
  const notes = author ? caveats(author) : [];
  return (
    <div className="site-signature">
      {author ? (
        <div>
          <p className="site-signature__line">
            Signed by <strong>{author.signedBy}</strong>
            {author.trusted ? (
              <>
                {' '}
                <span className="site-badge site-badge--success">trusted root</span>
              </>
            ) : null}
            {notes.map((note) => (
              <span key={note}>
                {' '}
                <span className="site-badge site-badge--warning">{note}</span>
              </span>
            ))}
          </p>
          <details>
            <summary>Certificate</summary>
            <ol aria-label={`Certificate chain of ${author.signedBy}`}>
              {author.chain.map((certificate) => (
                <li key={certificate.fingerprint256}>{commonName(certificate.subject)}</li>
              ))}
            </ol>
            {author.chain[0] ? (
              <p>
                SHA-256 <code>{author.chain[0].fingerprint256}</code>
              </p>
            ) : null}
          </details>
        </div>
      ) : (
        <p className="site-signature__line site-muted">Not signed by its author</p>
      )}
      {signature.countersigned ? (
        <div>
          <Link to={CERTIFICATE_PAGE}>Countersigned by this marketplace</Link>
        </div>
      ) : (
        <div className="site-muted">
          Not countersigned{signature.countersignProblem ? `: ${signature.countersignProblem}` : ''}
        </div>
      )}
    </div>
  );
}
