/**
 * The id of the stylesheet link a server-rendered page carries for the components' CSS (served by
 * site-hosting from UI_STYLES), so the first paint is styled before any script runs; the page then adopts
 * nothing (lib/ui-styles.ts).
 */
export const UI_STYLES_LINK_ID = 'mp-ui-styles';
