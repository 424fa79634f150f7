import { isApiError } from '@marketplace/api-client';
import { pricingModelLabel } from '@marketplace/core';
import { Link, useParams } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import { MonetizationSteps, sellerApplicationPath } from '../plugin/MonetizationTab';
import { ContinuitySection, ProgramsSection, VolumeDiscountsSection } from './SellingDiscounts';
import { OffersSection } from './SellingOffers';
import { PriceChangesSection, PricesSection } from './SellingPrices';
import { currencyFrom } from './selling-parts';
import { ProgramApplicationsSection, SellingDetailsSection, SubscriptionsSection } from './SellingTerms';

const CALLOUT_SPACING = { marginBottom: 16 } as const;

function SellerCallout({
  vendorId,
  status,
  pluginId,
}: {
  vendorId: number | null;
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | null;
  pluginId: number;
}) {
  if (vendorId === null) {
    return (
      <p className="site-callout site-callout--warning" style={CALLOUT_SPACING}>
        This item names no vendor, and only a vendor can sell: upload a version whose plugin.xml names one in
        &lt;vendor&gt;.
      </p>
    );
  }
  const apply = sellerApplicationPath(vendorId, pluginId);
  if (status === 'APPROVED') {
    return (
      <p className="site-callout site-callout--success" style={CALLOUT_SPACING}>
        Your vendor is an approved seller.{' '}
        <Link to={apply} style={{ color: 'inherit' }}>
          Legal and payout details
        </Link>
      </p>
    );
  }
  return (
    <div className="site-callout site-callout--warning" style={CALLOUT_SPACING}>
      <p style={{ margin: 0 }}>
        {status === 'PENDING'
          ? 'Your application to sell is waiting for an administrator. You can prepare prices and offers meanwhile.'
          : status === 'REJECTED'
            ? 'Your application to sell was rejected: see the note, correct the details and apply again.'
            : 'Only approved sellers can sell. Apply with your legal and payout details; an administrator decides.'}
      </p>
      <div className="site-form-actions">
        <Link className="mp-button" to={apply}>
          {status === null ? 'Apply to sell' : 'See the application'}
        </Link>
      </div>
    </div>
  );
}

function Selling({ pluginId }: { pluginId: number }) {
  const [plugin] = useLoad((signal) => api.getPlugin(pluginId, {}, { signal }), [pluginId]);
  const [monetization, reloadMonetization] = useLoad(
    (signal) => api.commerce.getMonetization(pluginId, { signal }),
    [pluginId],
  );
  const [pricing, reloadPricing] = useLoad(
    (signal) => api.commerce.getPricing(pluginId, { signal }),
    [pluginId],
  );
  usePageTitle(plugin.status === 'resolved' ? `Selling ${plugin.data.info.name}` : 'Selling');

  if (monetization.status === 'rejected') {
    const forbidden = isApiError(monetization.error) && monetization.error.status === 403;
    return (
      <div className="site-message" role="alert">
        <h1>Selling is not available</h1>
        <p>
          {forbidden
            ? 'Only the people of this item and administrators can set up its selling.'
            : errorText(monetization.error)}
        </p>
        <Link to="/dashboard">Back to my items</Link>
      </div>
    );
  }
  if (plugin.status === 'rejected') {
    return (
      <div className="site-message" role="alert">
        <h1>This item could not be loaded</h1>
        <p>{errorText(plugin.error)}</p>
      </div>
    );
  }
  if (plugin.status === 'pending' || monetization.status === 'pending')
    return <p className="site-page site-muted">Loading…</p>;

  const info = plugin.data.info;
  const state = monetization.data;
  const changed = () => {
    reloadPricing();
    reloadMonetization();
  };
  return (
    <div className="site-page site-narrow">
      <p>
        <Link to={`/dashboard/plugin/${pluginId}`}>← Manage {info.name}</Link>
      </p>
      <h1>
        Selling {info.name}{' '}
        <Link to={`${info.link}/sales`} className="site-title-link">
          Sales
        </Link>
        <Link to={info.link} className="site-title-link">
          Open page
        </Link>
      </h1>
      <SellerCallout vendorId={state.vendorId} status={state.sellerStatus} pluginId={pluginId} />
      {info.pricingModel === 'FREE' ? (
        <p className="site-callout site-callout--warning" style={CALLOUT_SPACING}>
          {info.name} is free. To sell it, finish the steps below, then change its pricing to{' '}
          {pricingModelLabel('PAID')} or {pricingModelLabel('FREEMIUM')} under “Details and links” in{' '}
          <Link to={`/dashboard/plugin/${pluginId}`} style={{ color: 'inherit' }}>
            Manage
          </Link>
          .
        </p>
      ) : null}
      <section className="site-card-block" aria-labelledby="selling-steps-heading">
        <h2 id="selling-steps-heading">Steps to start selling</h2>
        <MonetizationSteps monetization={state} />
      </section>
      {pricing.status === 'rejected' ? <p className="site-error">{errorText(pricing.error)}</p> : null}
      {pricing.status === 'pending' ? <p className="site-muted">Loading prices…</p> : null}
      {pricing.status === 'resolved'
        ? (() => {
            const data = pricing.data;
            const currency = currencyFrom(data.currency);
            // Each form starts again from what the server keeps after a save (its key changes with the data).
            return (
              <>
                <PricesSection
                  key={`prices-${JSON.stringify(data.prices)}`}
                  pricing={data}
                  currency={currency}
                  onSaved={changed}
                />
                <PriceChangesSection
                  key={`changes-${JSON.stringify([data.scheduledChanges, data.prices])}`}
                  pricing={data}
                  currency={currency}
                  onSaved={changed}
                />
                <SubscriptionsSection pluginId={pluginId} onSaved={changed} />
                <VolumeDiscountsSection
                  key={`volume-${JSON.stringify(data.volumeDiscounts)}`}
                  pricing={data}
                  onSaved={changed}
                />
                <ContinuitySection
                  key={`continuity-${JSON.stringify(data.continuityDiscounts)}`}
                  pricing={data}
                  onSaved={changed}
                />
                <ProgramsSection
                  key={`programs-${JSON.stringify(data.programs)}`}
                  pricing={data}
                  onSaved={changed}
                />
                <SellingDetailsSection pluginId={pluginId} onSaved={changed} />
                <OffersSection pluginId={pluginId} currency={currency} />
                <ProgramApplicationsSection pluginId={pluginId} />
              </>
            );
          })()
        : null}
    </div>
  );
}

/** A plugin's selling settings (/dashboard/plugin/:pluginId/selling), for its people and administrators. */
export default function SellingPage() {
  const { pluginId = '' } = useParams();
  const id = /^\d{1,10}$/.test(pluginId) ? Number(pluginId) : undefined;
  return (
    <RequireSignIn>
      {() =>
        id === undefined ? (
          <p className="site-page site-error">There is no item {pluginId}.</p>
        ) : (
          <Selling pluginId={id} />
        )
      }
    </RequireSignIn>
  );
}
