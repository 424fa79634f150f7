import { currencyOf, formatMoney, type Currency } from '@marketplace/core';

/**
 * The currency of a code the server sent. The server sells in one currency its configuration checked against
 * core's list, so an unknown code cannot come from it; two minor digits is the safe reading if one did.
 */
export function currencyFrom(code: string): Currency {
  return currencyOf(code) ?? { code, minorDigits: 2 };
}

/** An amount in minor units of the currency named by its code, as people read it ('$1,234.56'). */
export function formatAmount(amountMinor: number, code: string): string {
  return formatMoney(amountMinor, currencyFrom(code));
}
