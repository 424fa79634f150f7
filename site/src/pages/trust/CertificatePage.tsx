import type { CertificateSummary } from '@marketplace/api-client';
import { signaturePaths } from '@marketplace/api-client';
import { formatDisplayDate } from '@marketplace/core';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useSiteOrigin } from '../../lib/server-render';
import { useLoad } from '../../lib/use-load';

function commonName(subject: string): string {
  const line = subject.split('\n').find((part) => part.startsWith('CN='));
  return line ? line.slice(3) : subject.replace(/\n/g, ', ');
}

function CertificateFacts({ certificate }: { certificate: CertificateSummary }) {
  return (
    <dl className="site-facts">
      <dt>Subject</dt>
      <dd>{certificate.subject.replace(/\n/g, ', ')}</dd>
      <dt>SHA-256 fingerprint</dt>
      <dd>
        <code>{certificate.fingerprint256}</code>
      </dd>
      <dt>Valid</dt>
      <dd>
        {formatDisplayDate(certificate.validFrom)} to {formatDisplayDate(certificate.validTo)}
      </dd>
    </dl>
  );
}

/**
 * The marketplace's plugin signing certificate (`/trust/certificate`): every archive it accepts is countersigned
 * with a chain ending in this certificate; the page gives the file and tells how an IDE is made to trust it.
 */
export default function CertificatePage() {
  usePageTitle('Plugin signing certificate');
  const [details] = useLoad((signal) => api.signatures.certificate({ signal }), []);
  const repositoryUrl = `${useSiteOrigin()}/plugins/list`;
  return (
    <div className="site-page">
      <h1>Plugin signing certificate</h1>
      <p>
        This marketplace countersigns every plugin archive it accepts, in the format the IDE verifies when it
        installs a plugin (the author&apos;s own signature, if any, is kept). An IDE that trusts the
        certificate below knows that a plugin it installs from here is the file this marketplace accepted.
      </p>
      {details.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {details.status === 'rejected' ? <p className="site-error">{errorText(details.error)}</p> : null}
      {details.status === 'resolved' ? (
        <section aria-labelledby="certificate-heading">
          <h2 id="certificate-heading">{commonName(details.data.certificate.subject)}</h2>
          <CertificateFacts certificate={details.data.certificate} />
          <a className="mp-button" href={signaturePaths.certificate()} download>
            Download the certificate (PEM)
          </a>
          {details.data.chain.length > 1 ? (
            <p className="site-muted">
              Archives are signed by {commonName(details.data.chain[0]!.subject)}, whose chain ends in this
              certificate: trust this one, not the signer&apos;s.
            </p>
          ) : null}
        </section>
      ) : null}
      <section aria-labelledby="trust-heading">
        <h2 id="trust-heading">Trusting it in an IntelliJ-based IDE</h2>
        <ol>
          <li>
            Add this marketplace as a plugin repository: Settings | Plugins | ⚙ | Manage Plugin Repositories,
            then <code>{repositoryUrl}</code>.
          </li>
          <li>
            Add the certificate: Settings | Plugins | ⚙ | Manage Plugin Certificates, then + and the
            downloaded
            <code> .pem</code> file.
          </li>
          <li>
            Turn the check on for plugins from custom repositories: Help | Find Action… | Registry…, then{' '}
            <code>custom-repository.certificate.signature.check</code>. The IDE then asks before it installs a
            plugin that is not signed by a certificate it trusts.
          </li>
        </ol>
        <h3>For managed installations</h3>
        <p>
          Put the certificate in a key store and point every IDE at it with a JVM option (for example in the
          IDE&apos;s <code>.vmoptions</code> file); the key store&apos;s password must be{' '}
          <code>changeit</code>:
        </p>
        <pre>
          <code>
            {
              'keytool -importcert -noprompt -alias marketplace -file marketplace.pem \\\n  -keystore plugins-truststore -storepass changeit\n-Dintellij.plugin.truststore=/path/to/plugins-truststore'
            }
          </code>
        </pre>
      </section>
    </div>
  );
}
