import { ApiError, type Plugin, type Statistic, type StatisticInput } from '@marketplace/api-client';
import {
  periodsBetween,
  STATISTICS_LOADING,
  STATISTICS_UNAVAILABLE,
  type StatisticDimension,
  type StatisticMeasure,
} from '@marketplace/core';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AnalyticsTab from './AnalyticsTab';

type Call = [StatisticMeasure, StatisticDimension, StatisticInput, { signal?: AbortSignal }?];
const statistic = vi.fn<(...call: Call) => Promise<Statistic>>();
vi.mock('../../../lib/api', () => ({
  api: { insight: { statistic: (...call: Call) => statistic(...call) } },
}));

const UPDATED_AT = Date.UTC(2026, 10, 25, 9, 30);

function plugin(pricingModel: 'FREE' | 'PAID' = 'FREE'): Plugin {
  return {
    id: 7,
    info: {
      id: 7,
      name: 'Tool',
      xmlId: 'com.example.tool',
      family: 'intellij',
      pricingModel,
      cdate: Date.UTC(2021, 2, 4),
    },
  } as unknown as Plugin;
}

/**
 * A fake server: 2 a day in the range asked (3 a day with a filter), 1 a day before 1 November; breakdowns
 * answer fixed rows.
 */
function fakeServer(...[measure, dimension, query]: Call): Promise<Statistic> {
  const perDay = (day: string) =>
    (query.product !== undefined || query.version !== undefined ? 3 : 2) - (day < '2026-11-01' ? 1 : 0);
  if (dimension === 'day' || dimension === 'week' || dimension === 'month') {
    const data = periodsBetween(query.startDate, query.endDate, dimension).map((name) => ({
      name,
      value: dimension === 'day' ? perDay(name) : 10,
    }));
    return Promise.resolve({
      measure,
      dimension,
      data: measure === 'revenue' ? data.map((point) => ({ ...point, value: point.value * 4_900 })) : data,
      ...(measure === 'revenue' ? { currency: 'USD' } : {}),
      updatedAt: UPDATED_AT,
    });
  }
  const rows: Record<string, { name: string; value: number }[]> = {
    version: [
      { name: '2.0.0', value: 40 },
      { name: '=cmd', value: 2 },
    ],
    product: [
      { name: 'IU', value: 30 },
      { name: 'PS', value: 10 },
      { name: '', value: 2 },
    ],
    country: [
      { name: 'DE', value: 25 },
      { name: 'FR', value: 5 },
    ],
  };
  return Promise.resolve({ measure, dimension, data: rows[dimension] ?? [], updatedAt: UPDATED_AT });
}

let location = '';
function Where() {
  const here = useLocation();
  location = `${here.pathname}${here.search}`;
  return null;
}

function renderTab(search = '', item = plugin()) {
  return render(
    <MemoryRouter initialEntries={[`/plugin/7-tool/analytics${search}`]}>
      <Routes>
        <Route
          path="/plugin/:item/:tab"
          element={
            <>
              <AnalyticsTab plugin={item} />
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

function calls(dimension?: StatisticDimension) {
  return statistic.mock.calls.filter((call) => dimension === undefined || call[1] === dimension);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-25T12:00:00Z'));
  statistic.mockImplementation(fakeServer);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  statistic.mockReset();
});

describe('the analytics tab', () => {
  it('says it is getting statistics, then draws the last 30 days of downloads per day with their total', async () => {
    renderTab();
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain(STATISTICS_LOADING);
    const chart = await screen.findByRole('img', { name: 'Downloads per day, 27.10.2026–25.11.2026' });
    expect(chart).toBeTruthy();
    expect(calls('day')[0]?.slice(0, 3)).toEqual([
      'downloads-count',
      'day',
      { plugin: 7, startDate: '2026-10-27', endDate: '2026-11-25', fill: 'full' },
    ]);
    // 5 days of October at 1 and 25 days of November at 2.
    const totals = screen.getByRole('definition');
    expect(totals.textContent).toBe('55');
    expect(screen.getByText('Total, 27.10.2026–25.11.2026')).toBeTruthy();
    // The series and the breakdown each say how fresh they are.
    await screen.findByRole('table', { name: /^Downloads by version/ });
    expect(screen.getAllByText('Figures up to 25.11.2026 09:30 UTC')).toHaveLength(2);
    expect(screen.queryByText(STATISTICS_LOADING)).toBeNull();
  });

  it('says when statistics are unavailable, with the reason the server gave for refusing the question', async () => {
    statistic.mockRejectedValue(
      new ApiError({
        method: 'GET',
        url: 'http://localhost:8080/statistic/downloads-count/day',
        status: 400,
        statusText: 'Bad Request',
        type: 'error',
        reportedStatus: 400,
        message: 'The range is too long for days.',
      }),
    );
    renderTab();
    const alerts = await screen.findAllByRole('alert');
    expect(alerts[0]?.textContent).toBe(`${STATISTICS_UNAVAILABLE}The range is too long for days.`);
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('keeps the server’s own failures to itself', async () => {
    statistic.mockRejectedValue(
      new ApiError({
        method: 'GET',
        url: 'http://localhost:8080/statistic/downloads-count/day',
        status: 500,
        statusText: 'Internal Server Error',
        type: 'error',
        reportedStatus: 500,
        message: 'relation "insight_daily" does not exist',
      }),
    );
    renderTab();
    // Both parts say so, each once its own question has failed.
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
        STATISTICS_UNAVAILABLE,
        STATISTICS_UNAVAILABLE,
      ]),
    );
  });

  it('says so when there is nothing in the range', async () => {
    statistic.mockImplementation((measure, dimension, query) =>
      Promise.resolve({
        measure,
        dimension,
        data:
          dimension === 'day'
            ? periodsBetween(query.startDate, query.endDate, 'day').map((name) => ({ name, value: 0 }))
            : [],
      }),
    );
    renderTab();
    expect(await screen.findByText('No downloads in this range.')).toBeTruthy();
    expect(screen.getByText('Nothing to break down by version in this range.')).toBeTruthy();
  });

  it('offers the selling measures only for items that are not free, and shows revenue as money', async () => {
    renderTab();
    const measure = screen.getByLabelText('Measure') as HTMLSelectElement;
    expect([...measure.options].map((option) => option.text)).toEqual([
      'Downloads',
      'Unique downloads',
      'Installs from an IDE',
      'Update checks',
    ]);
    cleanup();
    renderTab('?measure=revenue&range=90', plugin('PAID'));
    expect(
      [...(screen.getByLabelText('Measure') as HTMLSelectElement).options].map((option) => option.value),
    ).toContain('revenue');
    await screen.findByRole('img', { name: 'Revenue per day, 28.08.2026–25.11.2026' });
    // 65 days before November at 1 and 25 days of November at 2, each worth $49.00.
    expect(screen.getByRole('definition').textContent).toBe('$5,635.00');
    // A sale knows its country and nothing else: the only breakdown, without a choice.
    expect(screen.queryByRole('group', { name: 'Break down by' })).toBeNull();
    expect(calls('country')).toHaveLength(1);
    expect(screen.getByRole('columnheader', { name: 'Revenue' })).toBeTruthy();
  });

  it('chooses the unit from the range, or the one asked for', async () => {
    renderTab('?range=365');
    await screen.findByRole('img', { name: 'Downloads per week, 26.11.2025–25.11.2026' });
    expect((screen.getByRole('option', { name: 'Automatic (week)' }) as HTMLOptionElement).selected).toBe(
      true,
    );
    fireEvent.change(screen.getByLabelText('Show per'), { target: { value: 'month' } });
    await screen.findByRole('img', { name: 'Downloads per month, 26.11.2025–25.11.2026' });
    expect(location).toBe('/plugin/7-tool/analytics?range=365&unit=month');
    cleanup();
    renderTab('?range=all');
    await screen.findByRole('img', { name: 'Downloads per month, 04.03.2021–25.11.2026' });
    expect((screen.getByLabelText('Compare with') as HTMLSelectElement).disabled).toBe(true);
  });

  it('checks a custom range and asks nothing until it is valid', async () => {
    renderTab('?range=custom&from=2026-03-10&to=2026-03-01');
    expect(screen.getByRole('alert').textContent).toBe(
      'The start date is after the end date: choose a start on or before the end.',
    );
    expect(screen.getByLabelText('Start date').getAttribute('aria-invalid')).toBe('true');
    expect(statistic).not.toHaveBeenCalled();
    fireEvent.input(screen.getByLabelText('End date'), { target: { value: '2026-03-20' } });
    await screen.findByRole('img', { name: 'Downloads per day, 10.03.2026–20.03.2026' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls('day')[0]?.[2]).toMatchObject({ startDate: '2026-03-10', endDate: '2026-03-20' });
  });

  it('compares with the previous period of the same length: a second line, both totals and the change', async () => {
    renderTab();
    await screen.findByRole('img', { name: /^Downloads per day/ });
    fireEvent.change(screen.getByLabelText('Compare with'), { target: { value: 'previous' } });
    await screen.findByText('Total, 27.09.2026–26.10.2026');
    expect(calls('day').at(-1)?.[2]).toMatchObject({ startDate: '2026-09-27', endDate: '2026-10-26' });
    const totals = screen.getByLabelText('Totals');
    expect(
      within(totals)
        .getAllByRole('definition')
        .map((value) => value.textContent),
    ).toEqual(['55', '30', '+83.3%']);
    expect(document.querySelector('[data-series="compared"]')).not.toBeNull();
    expect(screen.getByText(/compared with 27\.09\.2026–26\.10\.2026/)).toBeTruthy();
  });

  it('compares with a chosen period, asking for its first day', async () => {
    renderTab('?compare=custom');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Choose the start date of the period to compare with.',
    );
    fireEvent.input(screen.getByLabelText('Compared period starts'), { target: { value: '2026-01-01' } });
    await screen.findByText('Total, 01.01.2026–30.01.2026');
  });

  it('breaks down by product with the catalogue’s names, and a row filters the time series', async () => {
    renderTab();
    await screen.findByRole('table', { name: /^Downloads by version/ });
    fireEvent.click(screen.getByRole('radio', { name: 'Product' }));
    const table = await screen.findByRole('table', { name: 'Downloads by product, 27.10.2026–25.11.2026' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'ProductDownloadsShare',
      'IntelliJ IDEA Ultimate3071.4%',
      'PhpStorm1023.8%',
      'Not told (not an IDE, or an unknown one)24.8%',
    ]);
    expect(screen.getByRole('img', { name: 'Downloads by product, 27.10.2026–25.11.2026' })).toBeTruthy();

    fireEvent.click(within(table).getByRole('button', { name: 'IntelliJ IDEA Ultimate' }));
    await waitFor(() => expect(screen.getByRole('definition').textContent).toBe('85'));
    expect(calls('day').at(-1)?.[2]).toMatchObject({ product: 'IU' });
    expect(location).toBe('/plugin/7-tool/analytics?breakdown=product&product=IU');
    expect(screen.getByText('Product: IntelliJ IDEA Ultimate')).toBeTruthy();
    expect(
      within(screen.getByRole('table', { name: /^Downloads by product/ }))
        .getByRole('button', {
          name: 'IntelliJ IDEA Ultimate',
        })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    // The product breakdown itself is not narrowed to the product chosen.
    expect(calls('product').at(-1)?.[2].product).toBeUndefined();

    fireEvent.click(screen.getByRole('button', { name: 'Clear filter' }));
    await waitFor(() => expect(screen.getByRole('definition').textContent).toBe('55'));
    expect(screen.queryByRole('button', { name: 'Clear filter' })).toBeNull();
    expect(location).toBe('/plugin/7-tool/analytics?breakdown=product');
  });

  it('filters by what was not told, too', async () => {
    renderTab('?breakdown=product');
    const table = await screen.findByRole('table', { name: /^Downloads by product/ });
    fireEvent.click(within(table).getByRole('row', { name: /^Not told/ }));
    await screen.findByText('Product: Not told (not an IDE, or an unknown one)');
    expect(calls('day').at(-1)?.[2]).toMatchObject({ product: '' });
  });

  it('exports what it shows as CSV, named after the item, measure and range, formulas defused', async () => {
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:analytics';
    });
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    try {
      renderTab('?range=custom&from=2026-10-30&to=2026-11-02&compare=previous');
      await screen.findByText('Total, 26.10.2026–29.10.2026');
      await screen.findByRole('table', { name: /^Downloads by version/ });
      fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
      expect(names).toEqual(['com.example.tool-downloads-count-2026-10-30-2026-11-02.csv']);
      expect(blobs[0]?.type).toBe('text/csv;charset=utf-8');
      expect((await blobs[0]!.text()).split('\r\n')).toEqual([
        'section,name,label,value,compared_name,compared_label,compared_value,filters',
        'day,2026-10-30,30.10.2026,1,2026-10-26,26.10.2026,1,',
        'day,2026-10-31,31.10.2026,1,2026-10-27,27.10.2026,1,',
        'day,2026-11-01,01.11.2026,2,2026-10-28,28.10.2026,1,',
        'day,2026-11-02,02.11.2026,2,2026-10-29,29.10.2026,1,',
        'version,2.0.0,2.0.0,40,,,,',
        "version,'=cmd,'=cmd,2,,,,",
        '',
      ]);
    } finally {
      click.mockRestore();
    }
  });
});
