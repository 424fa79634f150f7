import { Link } from 'react-router';
import { usePageTitle } from '../lib/page-title';

export default function NotFoundPage() {
  usePageTitle('Page not found', { status: 404 });
  return (
    <div className="site-message">
      <h1>Page not found</h1>
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <Link className="mp-button" to="/">
        Go to the home page
      </Link>
    </div>
  );
}
