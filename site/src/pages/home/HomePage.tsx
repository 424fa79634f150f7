import { ANY_SEARCH_PAGE_SIZE, SITE_FEATURES, type SortOrder } from '@marketplace/core';
import { Link } from 'react-router';
import { ItemGrid } from '../../components/ItemGrid';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { useFeature } from '../../lib/features';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';

const SECTIONS: readonly { title: string; orderBy: SortOrder }[] = [
  { title: 'Most downloaded', orderBy: 'downloads' },
  { title: 'Recently updated', orderBy: 'update date' },
  { title: 'Top rated', orderBy: 'rating' },
];

function Section({ title, orderBy }: { title: string; orderBy: SortOrder }) {
  const [result] = useLoad(
    (signal) => api.searchPlugins({ orderBy, max: ANY_SEARCH_PAGE_SIZE }, { signal }),
    [orderBy],
  );
  const headingId = `home-${orderBy.replace(/\W/g, '-')}`;
  return (
    <section className="site-section" aria-labelledby={headingId}>
      <div className="site-section__head">
        <h2 id={headingId}>{title}</h2>
        <Link to={`/search?orderBy=${encodeURIComponent(orderBy)}`}>Show all</Link>
      </div>
      {result.status === 'rejected' ? (
        <p className="site-error" role="alert">
          {errorText(result.error)}
        </p>
      ) : (
        <ItemGrid
          label={title}
          items={result.status === 'resolved' ? result.data.data.plugins : undefined}
          skeletons={ANY_SEARCH_PAGE_SIZE}
          className="site-grid--six"
        />
      )}
    </section>
  );
}

/**
 * The administrators' picks for the IntelliJ family (admin/featured), in their order, first on the page;
 * nothing at all while they load, when there are none or when they cannot be read (the sections below
 * still list the catalogue).
 */
function FeaturedSection() {
  const [featured] = useLoad((signal) => api.featuredItems.list('intellij', { signal }), []);
  if (featured.status !== 'resolved' || featured.data.length === 0) return null;
  return (
    <section className="site-section" aria-labelledby="home-featured">
      <div className="site-section__head">
        <h2 id="home-featured">Featured</h2>
      </div>
      <ItemGrid label="Featured" items={featured.data} className="site-grid--six" />
    </section>
  );
}

export default function HomePage() {
  usePageTitle('Plugins for your IDE');
  // Feature flags (admin/features): the newest items' section and the search hint are switched there.
  const showNewItems = useFeature(SITE_FEATURES.homeNewItems);
  const showSearchHint = useFeature(SITE_FEATURES.homeSearchHint);
  return (
    <div className="site-page">
      <section className="site-hero">
        <h1>Plugins, themes and courses for your IDE</h1>
        <p>
          Find what your tools are missing and install it into the IDE running on your machine in one click.
        </p>
        <div className="site-hero__links">
          <Link className="mp-button" to="/search">
            Browse everything
          </Link>
          <Link className="site-hero__secondary" to="/search?family=edu">
            Courses
          </Link>
          <Link className="site-hero__secondary" to="/search?tags=Theme">
            Themes
          </Link>
        </div>
        {showSearchHint ? (
          <p className="site-hero__hint">
            Tip: type two letters or more in the search field to see matching items and tags as you type.
          </p>
        ) : null}
      </section>
      <FeaturedSection />
      {showNewItems ? <Section title="New on the marketplace" orderBy="publish date" /> : null}
      {SECTIONS.map((section) => (
        <Section key={section.orderBy} {...section} />
      ))}
    </div>
  );
}
