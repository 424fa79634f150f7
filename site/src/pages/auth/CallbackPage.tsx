import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { finishSignIn } from '../../auth/session';
import { usePageTitle } from '../../lib/page-title';

/** One exchange per page load: a code can be traded once (React may run the effect twice in development). */
let finishing: Promise<string> | undefined;

/** Where the identity service sends the visitor back: trades the code for tokens, then returns to their page. */
export default function CallbackPage() {
  usePageTitle('Signing in');
  const [failure, setFailure] = useState('');
  useEffect(() => {
    let cancelled = false;
    (finishing ??= finishSignIn(new URLSearchParams(location.search))).then(
      // A full load, so the whole page starts again as the signed-in user.
      (returnTo) => !cancelled && location.replace(returnTo),
      (error: unknown) => !cancelled && setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      cancelled = true;
    };
  }, []);
  if (!failure) return <p className="site-message">Signing you in…</p>;
  return (
    <div className="site-message" role="alert">
      <h1>Sign-in failed</h1>
      <p>{failure}</p>
      <Link to="/">Go to the home page</Link>
    </div>
  );
}
