import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DownloadsChart } from '../downloads-chart/DownloadsChart';
import type { CardItem } from '../plugin-card/card-data';
import { PluginCard, PluginCardSkeleton } from '../plugin-card/PluginCard';
import { ThemeCard, ThemeCardSkeleton } from '../theme-card/ThemeCard';
import { tokenStyles } from './tokens';
import {
  AI_BUTTON_STYLES,
  COURSE_BUTTON_STYLES,
  INSTALL_BUTTON_STYLES,
  PLUGIN_CARD_STYLES,
  UI_STYLES,
} from './ui-styles';

const item: CardItem = {
  id: 7,
  xmlId: 'com.example.theme',
  name: 'Night Owl',
  link: '/plugin/7-night-owl',
  family: 'intellij',
  icon: '',
  preview: '',
  vendor: { name: 'Example Tools', url: 'https://example.com' },
  rating: 3.5,
  downloads: 2_000,
  pricingModel: 'FREE',
  updateDate: Date.UTC(2026, 10, 1),
  isTheme: false,
  downloadStatistics: [{ name: '2026-11-20', value: 3 }],
};

/** Every `mp-*` class the rendered markup carries. */
function classesOf(element: Element): Set<string> {
  const classes = new Set<string>();
  for (const node of [element, ...element.querySelectorAll('[class]')])
    for (const name of node.classList) if (name.startsWith('mp-')) classes.add(name);
  return classes;
}

describe('component style sets', () => {
  it('give the cards a rule for every class they render, in every state', () => {
    const { container } = render(
      <div>
        <PluginCard item={item} now={Date.UTC(2026, 10, 21)} />
        <PluginCardSkeleton />
        <ThemeCard item={{ ...item, isTheme: true }} imageUrl="/files/night-owl.png" />
        <ThemeCardSkeleton />
        <DownloadsChart status="pending" />
        <DownloadsChart status="rejected" />
      </div>,
    );
    const css = PLUGIN_CARD_STYLES.join('\n');
    const unstyled = [...classesOf(container)].filter((name) => !css.includes(`.${name}`));
    expect(unstyled).toEqual([]);
  });

  it('start with the tokens and hold only texts of the whole stylesheet', () => {
    for (const set of [PLUGIN_CARD_STYLES, INSTALL_BUTTON_STYLES, AI_BUTTON_STYLES, COURSE_BUTTON_STYLES]) {
      expect(set[0]).toBe(tokenStyles);
      for (const text of set) expect(UI_STYLES).toContain(text);
    }
  });
});
