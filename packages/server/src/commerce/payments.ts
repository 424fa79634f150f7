import { sql } from 'drizzle-orm';
import type { Transaction } from '../db/client';
import { selectRows } from '../search/sql';

/*
 * How an order gets paid. A provider is told about each new order inside the order's transaction and says
 * what the buyer must do next; when the money arrives (an administrator marks an invoice paid, or a card
 * provider's webhook confirms a charge) the provider calls `markOrderPaid` (orders.ts), which turns the order
 * into a licence and a sale. A card provider is one more implementation of this interface and a route for
 * its webhook; nothing else changes.
 */

export interface PaymentRequest {
  orderId: number;
  amountMinor: number;
  currency: string;
  buyerId: number;
}

export interface PaymentInstructions {
  /** What the buyer is shown: the invoice to pay, or a page of the card provider to go to. */
  kind: 'invoice' | 'redirect';
  invoiceId?: number;
  redirectUrl?: string;
}

export interface PaymentProvider {
  /** Kept with each order, so a later change of provider leaves old orders with theirs. */
  readonly name: string;
  startPayment(tx: Transaction, request: PaymentRequest): Promise<PaymentInstructions>;
}

/**
 * The built-in provider: an invoice the buyer pays by bank transfer, which an administrator marks paid when
 * the money is in (how marketplaces inside companies bill). Invoice numbers are `INV-<year>-<order id>`, so
 * they are unique and never reused.
 */
export function invoiceProvider(options: { dueDays: number }): PaymentProvider {
  return {
    name: 'invoice',
    async startPayment(tx, request) {
      const year = new Date().getUTCFullYear();
      const number = `INV-${year}-${String(request.orderId).padStart(6, '0')}`;
      const [invoice] = await selectRows<{ id: number }>(
        tx,
        sql`INSERT INTO invoices (order_id, number, amount_minor, currency, due_at)
          VALUES (${request.orderId}, ${number}, ${request.amountMinor}, ${request.currency},
            now() + make_interval(days => ${options.dueDays}))
          RETURNING id`,
      );
      if (!invoice) throw new Error('The invoice was not stored.');
      return { kind: 'invoice', invoiceId: invoice.id };
    },
  };
}
