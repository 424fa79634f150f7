import type { Pricing } from '@marketplace/api-client';
import { ApiError } from '@marketplace/api-client';
import { currencyOf, type Currency } from '@marketplace/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PricesSection } from './SellingPrices';

const setPrices = vi.fn();
vi.mock('../../lib/api', () => ({
  api: { commerce: { setPrices: (...args: unknown[]) => setPrices(...args) } },
}));

const USD = currencyOf('USD') as Currency;

const pricing: Pricing = {
  pluginId: 7,
  pricingModel: 'PAID',
  currency: 'USD',
  forSale: true,
  prices: [{ licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 4_900 }],
  scheduledChanges: [],
  trialDays: 30,
  volumeDiscounts: [],
  continuityDiscounts: [],
  programs: [],
  licenseKinds: ['PERSONAL'],
  billingPeriods: ['YEARLY'],
};

afterEach(() => {
  cleanup();
  setPrices.mockReset();
});

describe('the prices form', () => {
  it('shows the current prices as decimals and sends typed ones in whole cents', async () => {
    setPrices.mockResolvedValue(pricing);
    const onSaved = vi.fn();
    render(<PricesSection pricing={pricing} currency={USD} onSaved={onSaved} />);
    const yearly = screen.getByLabelText('Personal, yearly (USD)') as HTMLInputElement;
    expect(yearly.value).toBe('49.00');
    fireEvent.input(yearly, { target: { value: '4.35' } });
    fireEvent.input(screen.getByLabelText('Organization, yearly (USD)'), { target: { value: '1,299.9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(setPrices).toHaveBeenCalledWith(7, [
      { licenseKind: 'PERSONAL', billingPeriod: 'YEARLY', amountMinor: 435 },
      { licenseKind: 'ORGANIZATION', billingPeriod: 'YEARLY', amountMinor: 129_990 },
    ]);
  });

  it('says what is wrong with a typed amount next to the form and sends nothing', async () => {
    render(<PricesSection pricing={pricing} currency={USD} onSaved={vi.fn()} />);
    fireEvent.input(screen.getByLabelText('Personal, monthly (USD)'), { target: { value: '4.999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Personal, monthly');
    expect(setPrices).not.toHaveBeenCalled();
  });

  it('shows the server’s 400 message next to the form', async () => {
    setPrices.mockRejectedValue(
      new ApiError({
        method: 'PUT',
        url: 'http://localhost:8080/api/marketplace/plugin/7/prices',
        status: 400,
        statusText: 'Bad Request',
        type: 'error',
        reportedStatus: 400,
        message: 'Only approved sellers can sell.',
      }),
    );
    render(<PricesSection pricing={pricing} currency={USD} onSaved={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Only approved sellers can sell.');
  });
});
