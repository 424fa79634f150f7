import type { Plugin } from '@marketplace/api-client';
import { isValidWebsite, normalizeLink, pricingModelLabel } from '@marketplace/core';

/** Paid and freemium items: what the pricing model means for the visitor, and where to buy. */
export function PricingTab({ plugin }: { plugin: Plugin }) {
  const paid = plugin.info.pricingModel === 'PAID';
  const site = plugin.urls.url || plugin.vendor.url;
  return (
    <section className="site-pricing" aria-labelledby="pricing-heading">
      <h2 id="pricing-heading">{pricingModelLabel(plugin.info.pricingModel)}</h2>
      <p>
        {paid
          ? `${plugin.info.name} is a paid plugin with a free trial: install it from your IDE and evaluate it before you buy a license.`
          : `${plugin.info.name} is freemium: its core features are free, and a license unlocks the rest.`}
      </p>
      {site && isValidWebsite(site) ? (
        <a
          className="mp-button"
          href={normalizeLink(site)}
          target="_blank"
          rel="noopener noreferrer nofollow"
        >
          Prices on the vendor’s site
        </a>
      ) : null}
    </section>
  );
}
