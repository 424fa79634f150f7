import type { Order } from '@marketplace/api-client';
import {
  BILLING_PERIOD_LABELS,
  formatDisplayDate,
  formatNumber,
  LICENSE_KIND_LABELS,
} from '@marketplace/core';
import { useToasts } from '@marketplace/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../lib/api';
import { showErrorToast } from '../../lib/errors';
import { formatAmount } from '../../lib/money';
import { useLoad } from '../../lib/use-load';
import { adminErrorText } from './SellersSection';

function OrderCells({ order }: { order: Order }) {
  return (
    <>
      <td>
        #{order.id}
        <div className="site-muted">
          {LICENSE_KIND_LABELS[order.licenseKind]}, {BILLING_PERIOD_LABELS[order.billingPeriod].toLowerCase()}
          , {formatNumber(order.quantity)} {order.quantity === 1 ? 'seat' : 'seats'}
        </div>
      </td>
      <td>
        {order.buyer.name}
        <div className="site-muted">
          for {order.licensee} ({order.countryCode})
        </div>
      </td>
      <td>
        <Link to={`/plugin/${order.pluginId}`}>{order.pluginName}</Link>
      </td>
    </>
  );
}

const PAGE_SIZE = 20;

/** A page of a list kept in memory (the server answers the newest 500 invoices at most). */
function usePage<T>(list: readonly T[]) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  return {
    shown: list.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE),
    pager:
      pages > 1
        ? (label: string) => (
            <nav className="site-pagination" aria-label={label}>
              <button type="button" disabled={current === 0} onClick={() => setPage(current - 1)}>
                Previous
              </button>
              <span className="site-muted">
                {current + 1} of {pages}
              </span>
              <button type="button" disabled={current + 1 >= pages} onClick={() => setPage(current + 1)}>
                Next
              </button>
            </nav>
          )
        : () => null,
  };
}

/**
 * Administrators: invoices of the built-in payment provider. Marking an open invoice paid (the money has
 * arrived) issues the buyer's licence and records the sale.
 */
export function InvoicesSection() {
  const toasts = useToasts();
  const [open, reloadOpen] = useLoad((signal) => api.commerce.getInvoices('OPEN', { signal }), []);
  const [paid, reloadPaid] = useLoad((signal) => api.commerce.getInvoices('PAID', { signal }), []);
  const [marking, setMarking] = useState<number | undefined>(undefined);

  async function markPaid(order: Order) {
    const invoice = order.invoice;
    if (!invoice) return;
    setMarking(invoice.id);
    try {
      await api.commerce.markInvoicePaid(invoice.id);
      toasts?.show({
        kind: 'success',
        title: `Invoice ${invoice.number} paid`,
        message: 'The licence is issued.',
      });
      reloadOpen();
      reloadPaid();
    } catch (error) {
      showErrorToast(toasts, error);
    } finally {
      setMarking(undefined);
    }
  }

  const openList = open.status === 'resolved' ? open.data : [];
  const paidList = paid.status === 'resolved' ? paid.data : [];
  const openPage = usePage(openList);
  const paidPage = usePage(paidList);
  return (
    <section className="site-section" id="invoices" aria-labelledby="invoices-heading">
      <h2 id="invoices-heading">Invoices</h2>
      <h3>Open</h3>
      {open.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {open.status === 'rejected' ? <p className="site-muted">{adminErrorText(open.error)}</p> : null}
      {open.status === 'resolved' && openList.length === 0 ? (
        <p className="site-muted">No invoice is waiting for payment.</p>
      ) : null}
      {openList.length ? (
        <table className="site-table">
          <caption className="site-visually-hidden">Open invoices</caption>
          <thead>
            <tr>
              <th scope="col">Invoice</th>
              <th scope="col">Order</th>
              <th scope="col">Buyer</th>
              <th scope="col">Item</th>
              <th scope="col" className="site-number">
                Amount
              </th>
              <th scope="col">Due</th>
              <th scope="col">
                <span className="site-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {openPage.shown.map((order) =>
              order.invoice ? (
                <tr key={order.invoice.id}>
                  <td>
                    {order.invoice.number}
                    <div className="site-muted">issued {formatDisplayDate(order.invoice.issuedAt)}</div>
                  </td>
                  <OrderCells order={order} />
                  <td className="site-number">
                    {formatAmount(order.invoice.amountMinor, order.invoice.currency)}
                  </td>
                  <td>
                    {formatDisplayDate(order.invoice.dueAt)}
                    {order.invoice.dueAt < Date.now() ? (
                      <span className="site-badge site-badge--warning">Overdue</span>
                    ) : null}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="mp-button"
                      disabled={marking === order.invoice.id}
                      onClick={() => void markPaid(order)}
                    >
                      Mark paid
                    </button>
                  </td>
                </tr>
              ) : null,
            )}
          </tbody>
        </table>
      ) : null}
      {openPage.pager('Open invoice pages')}
      <h3>Paid</h3>
      {paid.status === 'rejected' ? <p className="site-muted">{adminErrorText(paid.error)}</p> : null}
      {paid.status === 'resolved' && paidList.length === 0 ? (
        <p className="site-muted">No paid invoices yet.</p>
      ) : null}
      {paidList.length ? (
        <table className="site-table">
          <caption className="site-visually-hidden">Paid invoices</caption>
          <thead>
            <tr>
              <th scope="col">Invoice</th>
              <th scope="col">Order</th>
              <th scope="col">Buyer</th>
              <th scope="col">Item</th>
              <th scope="col" className="site-number">
                Amount
              </th>
              <th scope="col">Paid</th>
            </tr>
          </thead>
          <tbody>
            {paidPage.shown.map((order) =>
              order.invoice ? (
                <tr key={order.invoice.id}>
                  <td>{order.invoice.number}</td>
                  <OrderCells order={order} />
                  <td className="site-number">
                    {formatAmount(order.invoice.amountMinor, order.invoice.currency)}
                  </td>
                  <td>{order.invoice.paidAt ? formatDisplayDate(order.invoice.paidAt) : '—'}</td>
                </tr>
              ) : null,
            )}
          </tbody>
        </table>
      ) : null}
      {paidPage.pager('Paid invoice pages')}
    </section>
  );
}
