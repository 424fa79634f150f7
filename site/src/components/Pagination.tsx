import { Link } from 'react-router';

/** Page links (as links, so each page has an address and Back works). */
export function Pagination({
  page,
  pageCount,
  hrefFor,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  const pages = new Set(
    [1, page - 1, page, page + 1, pageCount].filter((value) => value >= 1 && value <= pageCount),
  );
  const sorted = [...pages].sort((a, b) => a - b);
  return (
    <nav className="site-pagination" aria-label="Pages">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev">
          Previous
        </Link>
      ) : null}
      {sorted.map((value, index) => (
        <span key={value}>
          {index > 0 && value - (sorted[index - 1] ?? value) > 1 ? (
            <span className="site-muted">…</span>
          ) : null}
          {value === page ? (
            <span aria-current="page" className="is-current">
              {value}
            </span>
          ) : (
            <Link to={hrefFor(value)}>{value}</Link>
          )}
        </span>
      ))}
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
