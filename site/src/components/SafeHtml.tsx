import { useMemo } from 'react';
import { sanitizeHtml } from '../lib/sanitize';

/** HTML from the server (descriptions, change notes, documentation), sanitised again before it is shown. */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  // The only place the site sets HTML: always the sanitised text.
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
