import type { DownloadStatisticPoint, PluginCard as PluginCardData } from '@marketplace/core';

/** Items and statistics for stories: plausible values, one place. */

const DAY_MS = 24 * 60 * 60 * 1000;
export const SAMPLE_NOW = Date.UTC(2026, 10, 21, 12);

/** Thirty days of downloads with a weekly rhythm (fewer at weekends) and a release bump. */
export const SAMPLE_DOWNLOADS: DownloadStatisticPoint[] = Array.from({ length: 30 }, (_, index) => {
  const date = new Date(SAMPLE_NOW - (30 - index) * DAY_MS);
  const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
  const release = index >= 18 && index <= 21 ? 900 : 0;
  return { name: date.toISOString().slice(0, 10), value: (weekend ? 310 : 620) + index * 9 + release };
});

/** An item icon drawn inline, so stories need no network. */
export const SAMPLE_ICON = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">
  <rect width="48" height="48" rx="10" fill="#1e1f22"/>
  <g fill="none" stroke-width="3.5" stroke-linecap="round">
    <path d="M17 11c-5 4-5 22 0 26" stroke="#ff6b6b"/><path d="M31 11c5 4 5 22 0 26" stroke="#ff6b6b"/>
    <path d="M21 16c-3 3-3 13 0 16" stroke="#ffd93d"/><path d="M27 16c3 3 3 13 0 16" stroke="#ffd93d"/>
    <path d="M24 20v8" stroke="#6bcbff"/>
  </g>
</svg>`,
)}`;

export const SAMPLE_PLUGIN: PluginCardData = {
  id: 10080,
  xmlId: 'izhangzhihao.rainbow.brackets',
  name: 'Rainbow Brackets',
  link: '/plugin/10080-rainbow-brackets',
  family: 'intellij',
  icon: SAMPLE_ICON,
  preview:
    'Rainbow Brackets for IntelliJ-based IDEs: colours matching round, square, curly and angle brackets so nested code reads at a glance.',
  vendor: { name: 'Zhihao Zhang', url: 'https://github.com/izhangzhihao' },
  rating: 4.6,
  downloads: 18_442_907,
  pricingModel: 'FREEMIUM',
  updateDate: SAMPLE_NOW - 12 * DAY_MS,
  isTheme: false,
};

export const SAMPLE_THEME: PluginCardData = {
  id: 12275,
  xmlId: 'com.dracula',
  name: 'Dracula Theme',
  link: '/plugin/12275-dracula-theme',
  family: 'intellij',
  icon: '',
  preview: 'A dark theme for IntelliJ-based IDEs, with matching editor colours.',
  vendor: { name: 'Dracula Theme', url: 'https://draculatheme.com' },
  rating: 4.8,
  downloads: 5_120_331,
  pricingModel: 'FREE',
  updateDate: SAMPLE_NOW - 3 * DAY_MS,
  isTheme: true,
};

/** A theme screenshot drawn inline (382x213), so stories need no network. */
export const SAMPLE_THEME_IMAGE = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" width="382" height="213" viewBox="0 0 382 213">
  <rect width="382" height="213" fill="#282a36"/>
  <rect width="90" height="213" fill="#21222c"/>
  <rect x="0" y="0" width="382" height="22" fill="#191a21"/>
  <circle cx="12" cy="11" r="4" fill="#ff5555"/><circle cx="26" cy="11" r="4" fill="#f1fa8c"/><circle cx="40" cy="11" r="4" fill="#50fa7b"/>
  <g font-family="monospace" font-size="10">
    <text x="10" y="44" fill="#6272a4">src</text><text x="18" y="60" fill="#f8f8f2">Main.kt</text><text x="18" y="76" fill="#f8f8f2">App.kt</text>
    <text x="104" y="44" fill="#ff79c6">fun</text><text x="126" y="44" fill="#50fa7b">main</text><text x="150" y="44" fill="#f8f8f2">() {</text>
    <text x="116" y="60" fill="#ff79c6">val</text><text x="138" y="60" fill="#f8f8f2">greeting =</text><text x="204" y="60" fill="#f1fa8c">"Hello"</text>
    <text x="116" y="76" fill="#8be9fd">println</text><text x="160" y="76" fill="#f8f8f2">(greeting)</text>
    <text x="104" y="92" fill="#f8f8f2">}</text>
    <text x="104" y="124" fill="#6272a4">// Dracula for your IDE</text>
    <text x="104" y="140" fill="#bd93f9">const</text><text x="138" y="140" fill="#f8f8f2">answer =</text><text x="192" y="140" fill="#bd93f9">42</text>
  </g>
</svg>`,
)}`;
