import { UI_STYLES } from '@marketplace/ui';

/**
 * The components' CSS, adopted as a constructed style sheet: the page's CSP allows no inline <style>, and a
 * sheet made by our own script is not inline markup. Imported on demand (main.tsx): a page the server rendered
 * links the same CSS as a file (UI_STYLES_LINK_ID), and would otherwise download it twice.
 */
export function adoptUiStyles(doc: Document = document): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(UI_STYLES);
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
}
