import type { Monetization, Plugin } from '@marketplace/api-client';
import { itemNoun, pricingModelLabel } from '@marketplace/core';
import { Link } from 'react-router';

/** Where to apply to sell for a vendor (and come back to an item's selling page afterwards). */
export function sellerApplicationPath(vendorId: number, pluginId?: number): string {
  return `/dashboard/selling/apply?vendor=${vendorId}${pluginId === undefined ? '' : `&plugin=${pluginId}`}`;
}

export function sellingPath(pluginId: number): string {
  return `/dashboard/plugin/${pluginId}/selling`;
}

const SELLER_STATUS_TEXT = {
  PENDING: 'Your application to sell is waiting for an administrator.',
  APPROVED: 'Your vendor is an approved seller.',
  REJECTED: 'Your application to sell was rejected.',
} as const;

/** The steps to start selling, each done (✓) or with what to do next. */
export function MonetizationSteps({ monetization }: { monetization: Monetization }) {
  return (
    <ol className="site-notes" aria-label="Steps to start selling">
      {monetization.steps.map((step) => (
        <li key={step.step}>
          <span>
            <strong>{step.title}</strong>
            {step.hint ? <span className="site-muted"> — {step.hint}</span> : null}
          </span>
          {step.done ? (
            <span className="site-badge site-badge--success">
              <span aria-hidden="true">✓ </span>Done
            </span>
          ) : (
            <span className="site-badge site-badge--warning">To do</span>
          )}
        </li>
      ))}
    </ol>
  );
}

/** For the item's people and administrators: where selling stands, and the way to the selling settings. */
export function MonetizationTab({ plugin, monetization }: { plugin: Plugin; monetization: Monetization }) {
  const remaining = monetization.steps.filter((step) => !step.done).length;
  const noun = itemNoun(plugin.info.family);
  return (
    <section aria-labelledby="monetization-heading">
      <h2 id="monetization-heading">Monetization</h2>
      <p className="site-item__meta">
        <span>
          Pricing: <span className="site-badge">{pricingModelLabel(monetization.pricingModel)}</span>
        </span>
        <span>
          {monetization.forSale ? (
            <span className="site-badge site-badge--success">For sale</span>
          ) : (
            <span className="site-badge site-badge--warning">Not for sale yet</span>
          )}
        </span>
        {monetization.productCode ? (
          <span>
            Product code <code>{monetization.productCode}</code>
          </span>
        ) : null}
      </p>
      {monetization.sellerStatus ? <p>{SELLER_STATUS_TEXT[monetization.sellerStatus]}</p> : null}
      <p>
        {remaining === 0
          ? 'Every step is done.'
          : `${remaining} of ${monetization.steps.length} ${remaining === 1 ? 'step' : 'steps'} still to do.`}
      </p>
      <MonetizationSteps monetization={monetization} />
      <div className="site-form-actions">
        <Link className="mp-button" to={sellingPath(plugin.id)}>
          Selling settings
        </Link>
        {monetization.vendorId !== null && monetization.sellerStatus !== 'APPROVED' ? (
          <Link
            className="site-button-secondary"
            to={sellerApplicationPath(monetization.vendorId, plugin.id)}
          >
            {monetization.sellerStatus === null ? 'Apply to sell' : 'Your application to sell'}
          </Link>
        ) : null}
        <Link className="site-button-secondary" to={`/dashboard/plugin/${plugin.id}`}>
          Manage the {noun}
        </Link>
      </div>
      {monetization.vendorId === null ? (
        <p className="site-muted">
          This {noun} names no vendor, and only a vendor can sell: upload a version whose plugin.xml names one
          in &lt;vendor&gt;.
        </p>
      ) : null}
    </section>
  );
}
