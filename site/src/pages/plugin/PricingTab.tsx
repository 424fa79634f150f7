import type { License, Order, Plugin, Pricing, Quote } from '@marketplace/api-client';
import {
  BILLING_PERIOD_LABELS,
  COMMUNITY_PROGRAM_LABELS,
  formatDisplayDate,
  isValidWebsite,
  itemNounWithArticle,
  LICENSE_KIND_LABELS,
  normalizeLink,
  pricingModelLabel,
  type BillingPeriod,
  type CommunityProgram,
  type LicenseKind,
} from '@marketplace/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useAuth } from '../../auth/AuthProvider';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { formatAmount } from '../../lib/money';
import { useLoad } from '../../lib/use-load';

/** Country names for the codes people type, in English. */
const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
function countryName(code: string): string | undefined {
  if (!/^[A-Z]{2}$/.test(code)) return undefined;
  try {
    const name = countryNames.of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Where paid and freemium items are sold elsewhere: the vendor's site, when the marketplace does not sell them. */
function VendorSiteFallback({ plugin }: { plugin: Plugin }) {
  const paid = plugin.info.pricingModel === 'PAID';
  const site = plugin.urls.url || plugin.vendor.url;
  return (
    <>
      <p>
        {paid
          ? `${plugin.info.name} is ${itemNounWithArticle(plugin.info.family)} with a free trial: install it from your IDE and evaluate it before you buy a license.`
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
    </>
  );
}

function PriceTable({ pricing, money }: { pricing: Pricing; money: (minor: number) => string }) {
  const priceOf = (kind: LicenseKind, period: BillingPeriod) =>
    pricing.prices.find((price) => price.licenseKind === kind && price.billingPeriod === period);
  return (
    <table className="site-table site-price-table">
      <caption className="site-visually-hidden">Prices per licence and billing period</caption>
      <thead>
        <tr>
          <th scope="col">Licence</th>
          {pricing.billingPeriods.map((period) => (
            <th key={period} scope="col" className="site-number">
              {BILLING_PERIOD_LABELS[period]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {pricing.licenseKinds.map((kind) => (
          <tr key={kind}>
            <th scope="row">
              {LICENSE_KIND_LABELS[kind]}
              <div className="site-muted">
                {kind === 'PERSONAL' ? 'For one person' : 'Per seat, for a team'}
              </div>
            </th>
            {pricing.billingPeriods.map((period) => {
              const price = priceOf(kind, period);
              return (
                <td key={period} className="site-number">
                  {price ? `${money(price.amountMinor)} / ${period === 'YEARLY' ? 'year' : 'month'}` : '—'}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Discounts({ pricing }: { pricing: Pricing }) {
  const items: string[] = [];
  for (const tier of pricing.volumeDiscounts)
    items.push(`${tier.percent}% off from ${tier.minQuantity} licences`);
  for (const step of pricing.continuityDiscounts) {
    items.push(
      `${step.percent}% off from the ${step.year === 2 ? 'second' : step.year === 3 ? 'third' : `${step.year}th`} year of a continuous subscription`,
    );
  }
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="discounts-heading">
      <h3 id="discounts-heading">Discounts</h3>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </section>
  );
}

function ScheduledChanges({ pricing, money }: { pricing: Pricing; money: (minor: number) => string }) {
  if (pricing.scheduledChanges.length === 0) return null;
  return (
    <div className="site-callout site-callout--warning" role="note">
      {pricing.scheduledChanges.map((change) => (
        <p key={change.id}>
          <strong>
            Prices change on {formatDisplayDate(new Date(`${change.effectiveDate}T00:00:00Z`))}:
          </strong>{' '}
          {change.prices
            .map(
              (price) =>
                `${LICENSE_KIND_LABELS[price.licenseKind].toLowerCase()} ${BILLING_PERIOD_LABELS[price.billingPeriod].toLowerCase()} ${money(price.amountMinor)}`,
            )
            .join(', ')}
          .
        </p>
      ))}
    </div>
  );
}

function Trial({ pluginId, pricing, name }: { pluginId: number; pricing: Pricing; name: string }) {
  const { user, signIn } = useAuth();
  const location = useLocation();
  const [trial, reload] = useLoad(
    (signal) => api.commerce.getTrial(pluginId, { signal }),
    [pluginId, user?.id],
  );
  const [started, setStarted] = useState<License | undefined>(undefined);
  const [failure, setFailure] = useState('');
  if (pricing.trialDays === 0) return null;
  async function start() {
    setFailure('');
    try {
      setStarted(await api.commerce.startTrial(pluginId));
      reload();
    } catch (error) {
      setFailure(errorText(error));
    }
  }
  const mine = trial.status === 'resolved' ? trial.data.myTrial : null;
  return (
    <section aria-labelledby="trial-heading">
      <h3 id="trial-heading">Free trial</h3>
      {mine ? (
        <p>
          Your trial of {name} runs until {formatDisplayDate(mine.endsAt)}. Its licence key is on your{' '}
          <Link to="/account/licenses">Licences</Link> page.
        </p>
      ) : (
        <p>
          Try {name} for {pricing.trialDays} days before you buy: one trial per customer.{' '}
          {user ? (
            <button type="button" className="mp-button mp-button--secondary" onClick={() => void start()}>
              Start the {pricing.trialDays}-day trial
            </button>
          ) : (
            <button
              type="button"
              className="mp-button mp-button--secondary"
              onClick={() => void signIn(location.pathname)}
            >
              Sign in to start a trial
            </button>
          )}
        </p>
      )}
      {started ? (
        <p role="status">Your trial has started: the licence key is on your Licences page.</p>
      ) : null}
      {failure ? (
        <p className="site-error" role="alert">
          {failure}
        </p>
      ) : null}
    </section>
  );
}

function Programs({ pluginId, pricing }: { pluginId: number; pricing: Pricing }) {
  const { user } = useAuth();
  const [program, setProgram] = useState<CommunityProgram | ''>('');
  const [evidence, setEvidence] = useState('');
  const [message, setMessage] = useState('');
  if (pricing.programs.length === 0) return null;
  async function apply(event: FormEvent) {
    event.preventDefault();
    if (!program) return setMessage('Choose a program.');
    try {
      await api.commerce.applyToProgram(pluginId, { program, evidence });
      setMessage(
        'Your application was sent: the vendor decides, and the discount then applies to your quotes.',
      );
      setEvidence('');
    } catch (error) {
      setMessage(errorText(error));
    }
  }
  return (
    <section aria-labelledby="programs-heading">
      <h3 id="programs-heading">Programs</h3>
      <ul>
        {pricing.programs.map((offer) => (
          <li key={offer.program}>
            {COMMUNITY_PROGRAM_LABELS[offer.program]}:{' '}
            {offer.percent === 100 ? 'a free licence' : `${offer.percent}% off`}
          </li>
        ))}
      </ul>
      {user ? (
        <form className="site-form" onSubmit={(event) => void apply(event)}>
          <label className="site-field">
            <span>Program</span>
            <select
              value={program}
              onChange={(event) => setProgram(event.target.value as CommunityProgram | '')}
            >
              <option value="">Choose…</option>
              {pricing.programs.map((offer) => (
                <option key={offer.program} value={offer.program}>
                  {COMMUNITY_PROGRAM_LABELS[offer.program]}
                </option>
              ))}
            </select>
          </label>
          <label className="site-field">
            <span>Why you qualify (your school, project repository or company)</span>
            <textarea value={evidence} rows={3} onChange={(event) => setEvidence(event.target.value)} />
          </label>
          <button type="submit" className="mp-button mp-button--secondary">
            Apply to the program
          </button>
          {message ? <p role="status">{message}</p> : null}
        </form>
      ) : null}
    </section>
  );
}

function QuoteLines({ quote, money }: { quote: Quote; money: (minor: number) => string }) {
  return (
    <table className="site-table site-quote" aria-label="Your quote">
      <tbody>
        {quote.lines.map((line) => (
          <tr key={line.kind}>
            <th scope="row">{line.detail}</th>
            <td className="site-number">
              {line.kind === 'LIST' ? money(line.amountMinor) : `−${money(-line.amountMinor)}`}
            </td>
          </tr>
        ))}
        <tr className="site-quote__total">
          <th scope="row">Total</th>
          <td className="site-number">{money(quote.totalMinor)}</td>
        </tr>
      </tbody>
    </table>
  );
}

function BuyForm({
  pluginId,
  pricing,
  money,
}: {
  pluginId: number;
  pricing: Pricing;
  money: (minor: number) => string;
}) {
  const { user, signIn } = useAuth();
  const location = useLocation();
  const [licenseKind, setLicenseKind] = useState<LicenseKind>(pricing.licenseKinds[0] ?? 'PERSONAL');
  const [billingPeriod, setBillingPeriod] = useState<BillingPeriod>(
    pricing.billingPeriods.includes('YEARLY') ? 'YEARLY' : (pricing.billingPeriods[0] ?? 'MONTHLY'),
  );
  const [quantity, setQuantity] = useState('1');
  const [couponInput, setCouponInput] = useState('');
  const [coupon, setCoupon] = useState('');
  const [licensee, setLicensee] = useState(user?.name ?? '');
  const [country, setCountry] = useState('');
  const [quote, setQuote] = useState<Quote | undefined>(undefined);
  const [failure, setFailure] = useState('');
  const [order, setOrder] = useState<Order | undefined>(undefined);
  const [placing, setPlacing] = useState(false);
  const seats = licenseKind === 'PERSONAL' ? 1 : Math.max(1, Math.trunc(Number(quantity)) || 1);

  useEffect(() => {
    if (user?.name) setLicensee((current) => current || user.name);
  }, [user?.name]);

  useEffect(() => {
    const controller = new AbortController();
    api.commerce
      .quote(
        pluginId,
        { quantity: seats, licenseKind, billingPeriod, couponCode: coupon },
        { signal: controller.signal },
      )
      .then(
        (answer) => {
          setQuote(answer);
          setFailure('');
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setFailure(errorText(error));
        },
      );
    return () => controller.abort();
  }, [pluginId, seats, licenseKind, billingPeriod, coupon, user?.id]);

  async function place(event: FormEvent) {
    event.preventDefault();
    setFailure('');
    if (licensee.trim().length < 2)
      return setFailure('Say who the licence is for: your name or your organisation’s.');
    if (!/^[A-Z]{2}$/.test(country))
      return setFailure('Give your billing country as its two-letter code, such as DE or US.');
    setPlacing(true);
    try {
      setOrder(
        await api.commerce.placeOrder({
          pluginId,
          licenseKind,
          billingPeriod,
          quantity: seats,
          licensee: licensee.trim(),
          countryCode: country,
          ...(coupon ? { couponCode: coupon } : {}),
        }),
      );
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setPlacing(false);
    }
  }

  if (order) {
    return (
      <div className="site-callout site-callout--success" role="status">
        <h3>Order {order.id} is placed</h3>
        <p>
          Total {money(order.totalMinor)}.{' '}
          {order.invoice
            ? `Pay invoice ${order.invoice.number} by bank transfer before ${formatDisplayDate(order.invoice.dueAt)}; the licence is issued as soon as the payment is confirmed.`
            : 'Complete the payment to receive the licence.'}
        </p>
        <p>
          <Link to="/account/licenses">See your orders and licences</Link>
        </p>
      </div>
    );
  }

  return (
    <form
      className="site-form site-card-block"
      onSubmit={(event) => void place(event)}
      aria-labelledby="buy-heading"
      noValidate
    >
      <h3 id="buy-heading">Buy a licence</h3>
      <fieldset className="site-choice">
        <legend>Licence</legend>
        {pricing.licenseKinds.map((kind) => (
          <label key={kind}>
            <input
              type="radio"
              name="license-kind"
              checked={licenseKind === kind}
              onChange={() => setLicenseKind(kind)}
            />{' '}
            {LICENSE_KIND_LABELS[kind]}
          </label>
        ))}
      </fieldset>
      <fieldset className="site-choice">
        <legend>Billing</legend>
        {pricing.billingPeriods.map((period) => (
          <label key={period}>
            <input
              type="radio"
              name="billing-period"
              checked={billingPeriod === period}
              onChange={() => setBillingPeriod(period)}
            />{' '}
            {BILLING_PERIOD_LABELS[period]}
          </label>
        ))}
      </fieldset>
      {licenseKind === 'ORGANIZATION' ? (
        <label className="site-field">
          <span>Seats</span>
          <input
            type="number"
            min={1}
            max={10000}
            step={1}
            value={quantity}
            onChange={(event) => setQuantity(event.target.value)}
          />
        </label>
      ) : null}
      <div className="site-field">
        <label htmlFor="coupon-code">Coupon code</label>
        <div className="site-inline">
          <input
            id="coupon-code"
            value={couponInput}
            autoComplete="off"
            onChange={(event) => setCouponInput(event.target.value)}
          />
          <button
            type="button"
            className="mp-button mp-button--secondary"
            onClick={() => setCoupon(couponInput.trim())}
          >
            Apply coupon
          </button>
        </div>
        {quote?.coupon && !quote.coupon.applied ? (
          <p className="site-field__error" role="alert">
            {quote.coupon.reason}
          </p>
        ) : null}
        {quote?.coupon?.applied ? <p role="status">Coupon {quote.coupon.code} applied.</p> : null}
      </div>
      {quote ? <QuoteLines quote={quote} money={money} /> : null}
      {user ? (
        <>
          <label className="site-field">
            <span>Licensee (a person or an organisation)</span>
            <input
              value={licensee}
              autoComplete="name"
              onChange={(event) => setLicensee(event.target.value)}
            />
          </label>
          <label className="site-field">
            <span>Billing country (two-letter code)</span>
            <input
              value={country}
              maxLength={2}
              autoComplete="country"
              onChange={(event) => setCountry(event.target.value.toUpperCase())}
              aria-describedby="country-name"
            />
            <span id="country-name" className="site-muted">
              {countryName(country) ?? ''}
            </span>
          </label>
          <button type="submit" className="mp-button" disabled={placing}>
            {placing ? 'Placing the order…' : 'Place order'}
          </button>
        </>
      ) : (
        <button type="button" className="mp-button" onClick={() => void signIn(location.pathname)}>
          Sign in to buy
        </button>
      )}
      {failure ? (
        <p className="site-error" role="alert">
          {failure}
        </p>
      ) : null}
    </form>
  );
}

/**
 * The pricing tab of a paid or freemium item: its prices per licence and period, announced price changes, the
 * trial, discounts and programs, and buying (a quote with a coupon, then an order with its invoice). Items the
 * marketplace does not sell point to the vendor's site.
 */
export function PricingTab({ plugin }: { plugin: Plugin }) {
  const [pricing] = useLoad((signal) => api.commerce.getPricing(plugin.id, { signal }), [plugin.id]);
  const code = pricing.status === 'resolved' ? pricing.data.currency : 'USD';
  const money = (minor: number) => formatAmount(minor, code);
  return (
    <section className="site-pricing" aria-labelledby="pricing-heading">
      <h2 id="pricing-heading">Pricing</h2>
      <p className="site-muted">{pricingModelLabel(plugin.info.pricingModel)}</p>
      {pricing.status === 'pending' ? <p className="site-muted">Getting prices…</p> : null}
      {pricing.status === 'rejected' ? <VendorSiteFallback plugin={plugin} /> : null}
      {pricing.status === 'resolved' && !pricing.data.forSale ? <VendorSiteFallback plugin={plugin} /> : null}
      {pricing.status === 'resolved' && pricing.data.forSale ? (
        <>
          {plugin.info.pricingModel === 'FREEMIUM' ? (
            <p>{plugin.info.name} is freemium: its core features are free, and a licence unlocks the rest.</p>
          ) : null}
          <PriceTable pricing={pricing.data} money={money} />
          <ScheduledChanges pricing={pricing.data} money={money} />
          <Trial pluginId={plugin.id} pricing={pricing.data} name={plugin.info.name} />
          <Discounts pricing={pricing.data} />
          <Programs pluginId={plugin.id} pricing={pricing.data} />
          <BuyForm pluginId={plugin.id} pricing={pricing.data} money={money} />
        </>
      ) : null}
    </section>
  );
}
