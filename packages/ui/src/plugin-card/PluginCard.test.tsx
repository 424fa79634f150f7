import { fireEvent, render, screen } from '@testing-library/react';
import { formatDisplayDate, THEME_TAG_ID, type Plugin } from '@marketplace/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ThemeCard, ThemeCardSkeleton, themeCoverBackground } from '../theme-card/ThemeCard';
import { cardStyles } from './card-styles';
import type { CardItem } from './card-data';
import { cardItemFromPlugin } from './card-data';
import { PluginCard, PluginCardSkeleton } from './PluginCard';
import { PluginRecordCard } from './PluginRecordCard';
import { RemotePluginCard } from './RemotePluginCard';

const now = Date.UTC(2026, 10, 21, 12);
const day = 24 * 60 * 60 * 1000;

const item: CardItem = {
  id: 42,
  xmlId: 'com.example.rainbow',
  name: 'Rainbow Brackets',
  link: '/plugin/42-rainbow-brackets',
  family: 'intellij',
  icon: 'https://plugins.example.com/files/icon.svg',
  preview: 'Colours matching brackets so nested code reads at a glance.',
  vendor: { name: 'Example Tools', url: 'https://example.com' },
  rating: 4.4,
  downloads: 1_234_567,
  pricingModel: 'FREEMIUM',
  updateDate: now - 10 * day,
  isTheme: false,
};

describe('PluginCard', () => {
  it('shows what a visitor needs to pick an item', () => {
    render(<PluginCard item={item} now={now} />);
    const card = screen.getByRole('article', { name: 'Rainbow Brackets' });
    expect(screen.getByRole('link', { name: 'Rainbow Brackets' }).getAttribute('href')).toBe(item.link);
    expect(card.textContent).toContain('Example Tools');
    expect(screen.getByRole('img', { name: 'Rated 4.4 out of 5' })).toBeTruthy();
    expect(card.textContent).toContain(item.preview);
    expect(card.textContent).toContain('1,234,567 downloads');
    expect(card.textContent).toContain('Updated 11.11.2026');
    expect(card.textContent).toContain('Freemium');
  });

  it('says when there is no description, and hides zero downloads and a fresh update date', () => {
    render(
      <PluginCard item={{ ...item, preview: ' ', downloads: 0, updateDate: now - day / 2 }} now={now} />,
    );
    const card = screen.getByRole('article');
    expect(card.textContent).toContain('Description is not provided');
    expect(card.textContent).not.toContain('downloads');
    expect(card.textContent).not.toContain('Updated');
  });

  it('opens the item page of the marketplace in a new window when embedded', () => {
    render(<PluginCard item={item} baseUrl="https://plugins.example.com" newWindow now={now} />);
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe('https://plugins.example.com/plugin/42-rainbow-brackets');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('draws the item’s download chart when it has statistics', () => {
    const downloadStatistics = Array.from({ length: 30 }, (_, index) => ({
      name: new Date(now - (30 - index) * day).toISOString().slice(0, 10),
      value: index * 3,
    }));
    render(<PluginCard item={{ ...item, downloadStatistics }} now={now} />);
    expect(screen.getAllByRole('listitem', { name: /downloads$/ })).toHaveLength(30);
  });

  it('has a skeleton that is announced as loading', () => {
    render(<PluginCardSkeleton />);
    expect(screen.getByRole('status', { name: 'Loading item' }).getAttribute('aria-busy')).toBe('true');
  });
});

describe('card images', () => {
  it('resolve relative icon addresses on assetBase and keep absolute ones', () => {
    const { container, rerender } = render(
      <PluginCard
        item={{ ...item, icon: '/files/icon.svg' }}
        assetBase="https://plugins.example.com"
        now={now}
      />,
    );
    const icon = () => container.querySelector('img.mp-card__icon')?.getAttribute('src');
    expect(icon()).toBe('https://plugins.example.com/files/icon.svg');
    rerender(
      <PluginCard
        item={{ ...item, icon: 'files/icon.svg' }}
        assetBase="https://example.com/marketplace"
        now={now}
      />,
    );
    expect(icon()).toBe('https://example.com/marketplace/files/icon.svg');
    rerender(<PluginCard item={item} assetBase="https://other.example" now={now} />);
    expect(icon()).toBe(item.icon);
    rerender(<PluginCard item={{ ...item, icon: '/files/icon.svg' }} now={now} />);
    expect(icon()).toBe('/files/icon.svg');
  });

  it('show the first letter, not a broken image, when the icon does not load', () => {
    // An item waiting for approval: its icon answers 404 to the image request, which carries no token.
    const pending = { ...item, icon: '/api/plugins/42/icon?v=abc' };
    const { container, rerender } = render(<PluginCard item={pending} now={now} />);
    fireEvent.error(container.querySelector('img.mp-card__icon') as HTMLImageElement);
    expect(container.querySelector('img.mp-card__icon')).toBeNull();
    expect(container.querySelector('.mp-card__icon--letter')?.textContent).toBe('R');
    // Another address is tried again.
    rerender(<PluginCard item={{ ...pending, icon: '/api/plugins/42/icon?v=def' }} now={now} />);
    expect(container.querySelector('img.mp-card__icon')?.getAttribute('src')).toBe(
      '/api/plugins/42/icon?v=def',
    );
  });
});

/** 30 days of downloads ending on the day of `now`, `value(index)` on each. */
function lastThirtyDays(value: (index: number) => number) {
  return Array.from({ length: 30 }, (_, index) => ({
    name: new Date(now - (29 - index) * day).toISOString().slice(0, 10),
    value: value(index),
  }));
}

describe('ThemeCard', () => {
  it('draws the 30-day download chart below the screenshot, with its total in words', () => {
    const theme = { ...item, name: 'Dracula', isTheme: true, downloadStatistics: lastThirtyDays((i) => i) };
    render(<ThemeCard item={theme} imageUrl="https://plugins.example.com/files/dracula.png" now={now} />);
    const bars = screen.getAllByRole('listitem', { name: /downloads$/ });
    expect(bars).toHaveLength(30);
    // The busiest day (29 downloads) is the full height; a day without downloads stays empty.
    expect(bars[29]?.style.height).toBe('100%');
    expect(bars[0]?.className).toContain('mp-chart__bar--empty');
    expect(bars[29]?.getAttribute('aria-label')).toBe('2026-11-21: 29 downloads');
    expect(screen.getByText('435 downloads in the last 30 days')).toBeTruthy();
    const card = screen.getByRole('article', { name: 'Dracula' });
    const image = screen.getByRole('img', { name: 'Dracula screenshot' });
    const chart = card.querySelector('.mp-chart');
    expect(chart && image.compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('draws no chart for a theme without statistics, or the chart it is given', () => {
    const theme = { ...item, name: 'Dracula', isTheme: true };
    const { rerender } = render(<ThemeCard item={theme} now={now} />);
    expect(screen.queryByRole('list', { name: 'Downloads per day' })).toBeNull();
    rerender(<ThemeCard item={theme} now={now} chart={<p>Chart elsewhere</p>} />);
    expect(screen.getByText('Chart elsewhere')).toBeTruthy();
  });

  it('shows the theme screenshot at 382x213 and always its update date', () => {
    const theme = { ...item, name: 'Dracula', isTheme: true, updateDate: now - day / 2 };
    render(<ThemeCard item={theme} imageUrl="https://plugins.example.com/files/dracula.png" now={now} />);
    const image = screen.getByRole('img', { name: 'Dracula screenshot' });
    expect(image.getAttribute('width')).toBe('382');
    expect(image.getAttribute('height')).toBe('213');
    expect(screen.getByRole('article').textContent).toContain('Updated 21.11.2026');
  });

  it('loads a relative screenshot address from the marketplace named by assetBase', () => {
    const theme = { ...item, name: 'Dracula', isTheme: true };
    render(
      <ThemeCard
        item={theme}
        imageUrl="/files/dracula.png"
        assetBase="https://plugins.example.com/marketplace"
        now={now}
      />,
    );
    expect(screen.getByRole('img', { name: 'Dracula screenshot' }).getAttribute('src')).toBe(
      'https://plugins.example.com/files/dracula.png',
    );
  });

  it('uses the card image the item carries when no screenshot is given', () => {
    const theme = { ...item, name: 'Dracula', isTheme: true, image: '/api/plugins/42/screenshots/7' };
    render(<ThemeCard item={theme} assetBase="https://plugins.example.com" now={now} />);
    expect(screen.getByRole('img', { name: 'Dracula screenshot' }).getAttribute('src')).toBe(
      'https://plugins.example.com/api/plugins/42/screenshots/7',
    );
  });

  it('draws a cover with the theme’s name, never an empty box, when it has no image', () => {
    const theme = { ...item, name: 'Night Owl', isTheme: true };
    const { container } = render(<ThemeCard item={theme} now={now} />);
    expect(screen.queryByRole('img', { name: 'Night Owl screenshot' })).toBeNull();
    const cover = container.querySelector<HTMLElement>('.mp-card__cover');
    expect(cover?.textContent).toBe('Night Owl');
    expect(cover?.style.backgroundImage).toContain('linear-gradient');
    // The same name always gets the same colours; another name other ones.
    expect(themeCoverBackground('Night Owl')).toBe(themeCoverBackground('Night Owl'));
    expect(themeCoverBackground('Night Owl')).not.toBe(themeCoverBackground('Solarized'));
  });

  it('falls back to the cover when the screenshot does not load', () => {
    const theme = { ...item, name: 'Dracula', isTheme: true, image: '/files/missing.png' };
    const { container } = render(<ThemeCard item={theme} now={now} />);
    const image = screen.getByRole('img', { name: 'Dracula screenshot' });
    // The cover is under the image from the start: nothing moves when the image loads or fails.
    expect(image.parentElement?.classList.contains('mp-card__cover')).toBe(true);
    fireEvent.error(image);
    expect(screen.queryByRole('img', { name: 'Dracula screenshot' })).toBeNull();
    expect(container.querySelector('.mp-card__cover')?.textContent).toBe('Dracula');
  });

  it('keeps the 382:213 frame whatever the image', () => {
    const frame = /\.mp-card__image, \.mp-card__cover \{[^}]*aspect-ratio: 382 \/ 213;/;
    expect(cardStyles).toMatch(frame);
    expect(cardStyles).toMatch(/\.mp-card__cover > \.mp-card__image \{[^}]*position: absolute; inset: 0;/);
  });

  it('has a skeleton', () => {
    render(<ThemeCardSkeleton />);
    expect(screen.getByRole('status', { name: 'Loading theme' })).toBeTruthy();
  });
});

const pluginBody: Plugin = {
  id: 42,
  removed: false,
  status: 'resolved',
  info: {
    id: 42,
    name: 'Rainbow Brackets',
    family: 'intellij',
    link: '/plugin/42-rainbow-brackets',
    approve: true,
    hasUnapprovedUpdate: false,
    isHidden: false,
    description: '<p>Colours <b>brackets</b></p>',
    preview: '',
    docText: '',
    email: '',
    downloads: 10,
    xmlId: 'com.example.rainbow',
    copyright: '',
    removalRequested: false,
    icon: '',
    cdate: now - 100 * day,
    pricingModel: 'FREE',
    isMonetizationAvailable: false,
    isBlocked: false,
    isModificationAllowed: true,
  },
  screenshots: [],
  tags: [],
  rating: { status: 'resolved', meanRating: 3, votes: { '3': 2 } },
  vendor: { name: '', url: '' },
  urls: {
    url: '',
    bugtrackerUrl: '',
    forumUrl: '',
    licenseUrl: '',
    sourceCodeUrl: '',
    docUrl: '',
    privacyPolicyUrl: '',
    donationLinks: [],
    customContacts: [],
  },
  language: null,
  programmingLanguage: null,
  developers: { status: 'idle', data: [] },
  bundles: { status: 'idle', data: [] },
  customTabs: [],
  themes: [],
};

describe('PluginRecordCard', () => {
  it('draws a plugin record as the plugin card, with links and images on the marketplace', () => {
    const plugin = { ...pluginBody, info: { ...pluginBody.info, icon: '/files/rainbow.svg' } };
    const { container } = render(
      <PluginRecordCard
        plugin={plugin}
        baseUrl="https://plugins.example.com"
        assetBase="https://plugins.example.com"
        newWindow
        now={now}
      />,
    );
    const expected = render(
      <PluginCard
        item={cardItemFromPlugin(plugin)}
        baseUrl="https://plugins.example.com"
        assetBase="https://plugins.example.com"
        newWindow
        now={now}
      />,
    );
    expect(container.innerHTML).toBe(expected.container.innerHTML);
    const link = screen.getAllByRole('link', { name: 'Rainbow Brackets' })[0];
    expect(link?.getAttribute('href')).toBe('https://plugins.example.com/plugin/42-rainbow-brackets');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(container.querySelector('img')?.getAttribute('src')).toBe(
      'https://plugins.example.com/files/rainbow.svg',
    );
  });

  it('draws a theme record as the theme card with its first screenshot', () => {
    const theme: Plugin = {
      ...pluginBody,
      tags: [
        {
          id: THEME_TAG_ID,
          name: 'Theme',
          link: '/search?tags=Theme',
          privileged: false,
          searchable: true,
          families: [],
        },
      ],
      screenshots: [{ url: '/files/night.png' }, { url: '/files/day.png' }],
    };
    const { container } = render(
      <PluginRecordCard plugin={theme} assetBase="https://plugins.example.com" now={now} />,
    );
    expect(container.querySelector('.mp-card--theme')).not.toBeNull();
    expect(container.querySelector('.mp-card__image')?.getAttribute('src')).toBe(
      'https://plugins.example.com/files/night.png',
    );
    // On the marketplace itself: relative links in the same window.
    expect(container.querySelector('.mp-card__name a')?.getAttribute('href')).toBe(
      '/plugin/42-rainbow-brackets',
    );
    expect(container.querySelector('.mp-card__name a')?.hasAttribute('target')).toBe(false);
  });
});

describe('cards from the marketplace API', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('turn an item into card data, the description as plain text', () => {
    expect(cardItemFromPlugin(pluginBody)).toMatchObject({
      name: 'Rainbow Brackets',
      preview: 'Colours brackets',
      icon: '',
      vendor: { name: '' },
      rating: 3,
      isTheme: false,
    });
  });

  it('take the update date and the 30-day chart from the item', () => {
    const downloadStatistics = lastThirtyDays((index) => (index === 29 ? 5 : 0));
    const card = cardItemFromPlugin({
      ...pluginBody,
      info: { ...pluginBody.info, updateDate: now - 3 * day },
      downloadStatistics,
    });
    expect(card.updateDate).toBe(now - 3 * day);
    expect(card.downloadStatistics).toEqual(downloadStatistics);
    // A marketplace that sends neither: no date, no chart.
    expect(cardItemFromPlugin(pluginBody).updateDate).toBeNull();
    expect(cardItemFromPlugin(pluginBody).downloadStatistics).toBeUndefined();
  });

  it.each([
    ['a plugin updated 3 days ago shows the date', { days: 3, theme: false, shown: true }],
    ['a plugin updated 1 day ago hides it', { days: 1, theme: false, shown: false }],
    ['a plugin updated an hour ago hides it', { days: 1 / 24, theme: false, shown: false }],
    ['a theme updated an hour ago shows it', { days: 1 / 24, theme: true, shown: true }],
  ])('apply the update-date rule: %s', (_, { days, theme, shown }) => {
    const plugin: Plugin = {
      ...pluginBody,
      info: { ...pluginBody.info, updateDate: now - days * day },
      tags: theme
        ? [{ id: 164, name: 'Theme', link: '', privileged: false, searchable: true, families: ['intellij'] }]
        : [],
    };
    const cardItem = cardItemFromPlugin(plugin);
    render(
      cardItem.isTheme ? <ThemeCard item={cardItem} now={now} /> : <PluginCard item={cardItem} now={now} />,
    );
    const text = screen.getByRole('article').textContent ?? '';
    if (shown) expect(text).toContain(`Updated ${formatDisplayDate(now - days * day)}`);
    else expect(text).not.toContain('Updated');
  });

  it('load the item with its chart in one request, showing a skeleton first', async () => {
    const requested: string[] = [];
    const body: Plugin = {
      ...pluginBody,
      info: { ...pluginBody.info, updateDate: Date.UTC(2025, 0, 2) },
      downloadStatistics: lastThirtyDays((index) => (index === 29 ? 5 : 0)),
    };
    vi.stubGlobal('fetch', async (url: string) => {
      requested.push(url);
      return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    });
    render(<RemotePluginCard apiBase="https://plugins.example.com" pluginId={42} />);
    expect(screen.getByRole('status', { name: 'Loading item' })).toBeTruthy();
    const card = await screen.findByRole('article', { name: 'Rainbow Brackets' });
    expect(await screen.findByText('5 downloads in the last 30 days')).toBeTruthy();
    expect(card.textContent).toContain('Updated 02.01.2025');
    expect(requested).toEqual(['https://plugins.example.com/api/plugins/42']);
  });

  it('render nothing when the item cannot be loaded', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"Not found"}', { status: 404 }));
    const { container } = render(<RemotePluginCard apiBase="https://plugins.example.com" pluginId={404} />);
    await vi.waitFor(() => expect(container.innerHTML).toBe(''));
  });
});
