import type { License, LicenseVerification, Order } from '@marketplace/api-client';
import {
  BILLING_PERIOD_LABELS,
  formatDisplayDate,
  LICENSE_KIND_LABELS,
  ORDER_STATUS_LABELS,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../../components/RequireSignIn';
import { api } from '../../lib/api';
import { formatAmount } from '../../lib/money';
import { errorText, showErrorToast } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';

function OrderRow({ order, onChange }: { order: Order; onChange: () => void }) {
  const toasts = useToasts();
  async function cancel() {
    if (!window.confirm(`Cancel order ${order.id} for ${order.pluginName}?`)) return;
    try {
      await api.commerce.cancelOrder(order.id);
      onChange();
    } catch (error) {
      showErrorToast(toasts, error);
    }
  }
  return (
    <tr>
      <td>
        <Link to={`/plugin/${order.pluginId}`}>{order.pluginName}</Link>
        <div className="site-muted">
          {LICENSE_KIND_LABELS[order.licenseKind]}, {BILLING_PERIOD_LABELS[order.billingPeriod].toLowerCase()}
          , {order.quantity} {order.quantity === 1 ? 'seat' : 'seats'}
        </div>
      </td>
      <td>{formatDisplayDate(order.createdAt)}</td>
      <td className="site-number">{formatAmount(order.totalMinor, order.currency)}</td>
      <td>
        <span className={`site-badge${order.status === 'PAID' ? ' site-badge--success' : ''}`}>
          {ORDER_STATUS_LABELS[order.status]}
        </span>
        {order.invoice && order.status === 'AWAITING_PAYMENT' ? (
          <div className="site-muted">
            Invoice {order.invoice.number}, due {formatDisplayDate(order.invoice.dueAt)}
          </div>
        ) : null}
      </td>
      <td>
        {order.status === 'AWAITING_PAYMENT' ? (
          <button type="button" className="mp-button mp-button--secondary" onClick={() => void cancel()}>
            Cancel
          </button>
        ) : null}
      </td>
    </tr>
  );
}

function LicenseCard({ license }: { license: License }) {
  const [verification, setVerification] = useState<LicenseVerification | undefined>(undefined);
  const [failure, setFailure] = useState('');
  const expired = license.expiresAt < Date.now();
  async function check() {
    setFailure('');
    try {
      setVerification(await api.commerce.verifyLicense(license.token));
    } catch (error) {
      setFailure(errorText(error));
    }
  }
  return (
    <article className="site-card-block site-license" aria-label={`Licence for ${license.pluginName}`}>
      <h3>
        {license.pluginName} {license.trial ? <span className="site-badge">Trial</span> : null}
        {expired ? <span className="site-badge site-badge--warning">Expired</span> : null}
      </h3>
      <dl className="site-facts">
        <dt>Licensee</dt>
        <dd>{license.licensee}</dd>
        <dt>Kind</dt>
        <dd>
          {LICENSE_KIND_LABELS[license.licenseKind]}, {license.seats} {license.seats === 1 ? 'seat' : 'seats'}
        </dd>
        <dt>Valid</dt>
        <dd>
          {formatDisplayDate(license.startsAt)} to {formatDisplayDate(license.expiresAt)}
        </dd>
        {license.productCode ? (
          <>
            <dt>Product code</dt>
            <dd>
              <code>{license.productCode}</code>
            </dd>
          </>
        ) : null}
      </dl>
      <label className="site-field">
        <span>Licence key (paste it into the plugin’s licence dialog)</span>
        <textarea
          className="site-token"
          readOnly
          rows={3}
          value={license.token}
          onFocus={(event) => event.currentTarget.select()}
        />
      </label>
      <p>
        <button type="button" className="mp-button mp-button--secondary" onClick={() => void check()}>
          Check this licence
        </button>{' '}
        <span role="status">
          {verification
            ? verification.valid
              ? `Valid: signed by this marketplace, until ${formatDisplayDate(verification.claims?.expiresAt ?? license.expiresAt)}.`
              : `Not valid: ${verification.reason ?? ''}`
            : failure}
        </span>
      </p>
    </article>
  );
}

function Licenses() {
  const [orders, reloadOrders] = useLoad((signal) => api.commerce.getMyOrders({ signal }), []);
  const [licenses] = useLoad((signal) => api.commerce.getMyLicenses({ signal }), []);
  return (
    <div className="site-page site-narrow">
      <h1>Licences and orders</h1>
      <section aria-labelledby="licenses-heading">
        <h2 id="licenses-heading">Licences</h2>
        {licenses.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
        {licenses.status === 'rejected' ? <p role="alert">{errorText(licenses.error)}</p> : null}
        {licenses.status === 'resolved' && licenses.data.length === 0 ? (
          <p className="site-muted">
            No licences yet. Paid items offer a trial and a licence on their Pricing tab.
          </p>
        ) : null}
        {licenses.status === 'resolved'
          ? licenses.data.map((license) => <LicenseCard key={license.id} license={license} />)
          : null}
      </section>
      <section aria-labelledby="orders-heading">
        <h2 id="orders-heading">Orders</h2>
        {orders.status === 'rejected' ? <p role="alert">{errorText(orders.error)}</p> : null}
        {orders.status === 'resolved' && orders.data.length === 0 ? (
          <p className="site-muted">No orders yet.</p>
        ) : null}
        {orders.status === 'resolved' && orders.data.length > 0 ? (
          <table className="site-table">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Ordered</th>
                <th scope="col">Total</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="site-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.data.map((order) => (
                <OrderRow key={order.id} order={order} onChange={reloadOrders} />
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </div>
  );
}

/** The signed-in buyer's licences (with their keys) and orders (with their invoices). */
export default function LicensesPage() {
  usePageTitle('Licences and orders');
  return <RequireSignIn>{() => <Licenses />}</RequireSignIn>;
}
