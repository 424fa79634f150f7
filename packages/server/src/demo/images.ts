import type { DemoPlugin } from './generate';

/** The plugin icon: a rounded square in the plugin's colour with its initials (40x40, as the IDE shows it). */
export function pluginIconSvg(plugin: Pick<DemoPlugin, 'name' | 'iconColour'>): string {
  const initials = plugin.name
    .split(/\s+/)
    .filter((word) => /^[A-Za-z0-9]/.test(word))
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">' +
    `<rect width="40" height="40" rx="8" fill="${plugin.iconColour}"/>` +
    `<text x="20" y="26" font-family="Inter, Arial, sans-serif" font-size="16" font-weight="700" fill="#fff" text-anchor="middle">${escapeText(initials)}</text>` +
    '</svg>'
  );
}

/** A screenshot: an IDE-like window (editor lines, a tool window) in the plugin's colour, dark or light. */
export function screenshotSvg(
  plugin: Pick<DemoPlugin, 'name' | 'iconColour'>,
  title: string,
  dark: boolean,
): string {
  const background = dark ? '#1e1f22' : '#ffffff';
  const panel = dark ? '#2b2d30' : '#f7f8fa';
  const text = dark ? '#bcbec4' : '#3d3f43';
  const lines = Array.from({ length: 12 }, (_, index) => {
    const width = 120 + ((index * 97 + plugin.name.length * 31) % 360);
    const colour = index % 4 === 1 ? plugin.iconColour : text;
    return `<rect x="${260 + (index % 3) * 24}" y="${80 + index * 26}" width="${width}" height="10" rx="3" fill="${colour}" opacity="0.8"/>`;
  }).join('');
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720" viewBox="0 0 1280 720">' +
    `<rect width="1280" height="720" fill="${background}"/>` +
    `<rect width="1280" height="40" fill="${panel}"/>` +
    `<rect y="40" width="220" height="680" fill="${panel}"/>` +
    `<rect x="20" y="60" width="180" height="28" rx="4" fill="${plugin.iconColour}"/>` +
    lines +
    `<text x="24" y="26" font-family="Inter, Arial, sans-serif" font-size="15" fill="${text}">${escapeText(`${plugin.name}: ${title}`)}</text>` +
    '</svg>'
  );
}

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
