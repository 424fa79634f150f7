/** The pages the embedded identity service shows: plain HTML, no scripts, readable without styles. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** No scripts, no frames around it (clickjacking), nothing loaded from elsewhere. */
export const LOGIN_PAGE_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
} as const;

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #19191c; margin: 0; }
  main { max-width: 22rem; margin: 10vh auto; background: #fff; padding: 2rem; border-radius: 8px;
         box-shadow: 0 2px 8px rgba(0,0,0,.08); }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input { box-sizing: border-box; width: 100%; padding: .5rem; margin-top: .25rem; font: inherit;
          border: 1px solid #b8babf; border-radius: 4px; }
  .actions { display: flex; gap: .5rem; margin-top: 1.5rem; }
  button { font: inherit; padding: .5rem 1rem; border-radius: 4px; border: 1px solid #167dff; cursor: pointer; }
  button[type=submit] { background: #167dff; color: #fff; }
  button.secondary { background: #fff; color: #167dff; }
  .error { color: #b00020; background: #fdecee; padding: .5rem .75rem; border-radius: 4px; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} | Marketplace</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface LoginPageInput {
  /** Where the form posts: the interaction's login address. */
  loginAction: string;
  /** Where "Cancel" posts. */
  abortAction: string;
  login?: string | undefined;
  error?: string | undefined;
}

export function renderLoginPage(input: LoginPageInput): string {
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return page(
    'Sign in',
    `<h1>Sign in to Marketplace</h1>
${error}
<form method="post" action="${escapeHtml(input.loginAction)}">
  <label for="login">Login</label>
  <input id="login" name="login" autocomplete="username" autocapitalize="none" spellcheck="false" required
         maxlength="50" value="${escapeHtml(input.login ?? '')}"${input.login ? '' : ' autofocus'}>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required
         maxlength="200"${input.login ? ' autofocus' : ''}>
  <div class="actions">
    <button type="submit">Sign in</button>
    <button type="submit" class="secondary" formaction="${escapeHtml(input.abortAction)}" formnovalidate>Cancel</button>
  </div>
</form>`,
  );
}

export function renderMessagePage(input: { title: string; message: string }): string {
  return page(input.title, `<h1>${escapeHtml(input.title)}</h1>\n<p>${escapeHtml(input.message)}</p>`);
}

/**
 * The sign-out confirmation. `providerForm` is the identity provider's own hidden form (it carries the
 * anti-forgery value), trusted HTML; the buttons submit it.
 */
export function renderLogoutPage(providerForm: string): string {
  return page(
    'Sign out',
    `<h1>Sign out of Marketplace?</h1>
${providerForm}
<div class="actions">
  <button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>
  <button type="submit" class="secondary" form="op.logoutForm">Stay signed in</button>
</div>`,
  );
}
