import {
  ANY_SEARCH_PAGE_SIZE,
  downloadWording,
  familyLabel,
  isProductFamily,
  itemNoun,
  PRODUCT_FAMILIES,
  SITE_FEATURES,
  type ProductFamily,
  type SortOrder,
} from '@marketplace/core';
import { Link, useSearchParams } from 'react-router';
import { ItemGrid } from '../../components/ItemGrid';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { useFeature } from '../../lib/features';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';

/**
 * The catalogue's sections. Without a family the API answers for the IntelliJ family (its default), and the
 * page keeps its general titles; a page scoped to one family (`/?family=edu`) names that family's items in
 * each title ('Most downloaded courses', 'Most installed applications').
 */
function sectionTitle(orderBy: SortOrder, family: ProductFamily | undefined): string {
  if (family === undefined) {
    if (orderBy === 'downloads') return 'Most downloaded';
    if (orderBy === 'update date') return 'Recently updated';
    if (orderBy === 'rating') return 'Top rated';
    return 'New on the marketplace';
  }
  const plural = itemNoun(family, { plural: true });
  if (orderBy === 'downloads')
    return `${downloadWording(family) === 'installation' ? 'Most installed' : 'Most downloaded'} ${plural}`;
  if (orderBy === 'update date') return `Recently updated ${plural}`;
  if (orderBy === 'rating') return `Top rated ${plural}`;
  return `New ${plural}`;
}

const SECTION_ORDERS: readonly SortOrder[] = ['downloads', 'update date', 'rating'];

/** Where a section's "Show all" leads: the browse page in the same order (and family, when scoped). */
function browsePath(orderBy: SortOrder | undefined, family: ProductFamily | undefined): string {
  const params = new URLSearchParams();
  if (orderBy) params.set('orderBy', orderBy);
  if (family) params.set('family', family);
  return `/search${params.size ? `?${params.toString()}` : ''}`;
}

function Section({ orderBy, family }: { orderBy: SortOrder; family: ProductFamily | undefined }) {
  const [result] = useLoad(
    (signal) =>
      api.searchPlugins({ orderBy, max: ANY_SEARCH_PAGE_SIZE, ...(family ? { family } : {}) }, { signal }),
    [orderBy, family],
  );
  const title = sectionTitle(orderBy, family);
  const headingId = `home-${orderBy.replace(/\W/g, '-')}`;
  return (
    <section className="site-section" aria-labelledby={headingId}>
      <div className="site-section__head">
        <h2 id={headingId}>{title}</h2>
        <Link to={browsePath(orderBy, family)}>Show all</Link>
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
 * The administrators' picks for the family (admin/featured; IntelliJ when the page is not scoped), in their
 * order, first on the page; nothing at all while they load, when there are none or when they cannot be read
 * (the sections below still list the catalogue).
 */
function FeaturedSection({ family }: { family: ProductFamily | undefined }) {
  const [featured] = useLoad((signal) => api.featuredItems.list(family ?? 'intellij', { signal }), [family]);
  if (featured.status !== 'resolved' || featured.data.length === 0) return null;
  const title = family ? `Featured ${itemNoun(family, { plural: true })}` : 'Featured';
  return (
    <section className="site-section" aria-labelledby="home-featured">
      <div className="site-section__head">
        <h2 id="home-featured">{title}</h2>
      </div>
      <ItemGrid label={title} items={featured.data} className="site-grid--six" />
    </section>
  );
}

/** Links to the home page of each product family. */
function FamilyLinks({ current }: { current: ProductFamily | undefined }) {
  return (
    // The hero's link row again, below the first one (site.css gives the row no margin of its own).
    <nav className="site-hero__links" style={{ marginTop: 16 }} aria-label="Product families">
      {current ? (
        <Link className="site-hero__secondary" to="/">
          All of the marketplace
        </Link>
      ) : null}
      {PRODUCT_FAMILIES.filter((family) => family !== current).map((family) => (
        <Link key={family} className="site-hero__secondary" to={`/?family=${family}`}>
          {familyLabel(family)}
        </Link>
      ))}
    </nav>
  );
}

export default function HomePage() {
  const [params] = useSearchParams();
  const familyParam = params.get('family');
  const family = isProductFamily(familyParam) ? familyParam : undefined;
  usePageTitle(family ? familyLabel(family, { long: true }) : 'Plugins for your IDE');
  // Feature flags (admin/features): the newest items' section and the search hint are switched there.
  const showNewItems = useFeature(SITE_FEATURES.homeNewItems);
  const showSearchHint = useFeature(SITE_FEATURES.homeSearchHint);
  const plural = family ? itemNoun(family, { plural: true }) : 'items';
  return (
    <div className="site-page">
      <section className="site-hero">
        {family ? (
          <>
            <h1>{familyLabel(family, { long: true })}</h1>
            <p>
              The {downloadWording(family) === 'installation' ? 'most installed' : 'most downloaded'},
              recently updated and top rated {plural}, with the administrators’ picks first.
            </p>
            <div className="site-hero__links">
              <Link className="mp-button" to={browsePath(undefined, family)}>
                Browse all {plural}
              </Link>
            </div>
          </>
        ) : (
          <>
            <h1>Plugins, themes and courses for your IDE</h1>
            <p>
              Find what your tools are missing and install it into the IDE running on your machine in one
              click.
            </p>
            <div className="site-hero__links">
              <Link className="mp-button" to="/search">
                Browse everything
              </Link>
              <Link className="site-hero__secondary" to="/?family=edu">
                Courses
              </Link>
              <Link className="site-hero__secondary" to="/search?tags=Theme">
                Themes
              </Link>
            </div>
          </>
        )}
        <FamilyLinks current={family} />
        {showSearchHint ? (
          <p className="site-hero__hint">
            Tip: type two letters or more in the search field to see matching {plural} and tags as you type.
          </p>
        ) : null}
      </section>
      <FeaturedSection family={family} />
      {showNewItems ? <Section orderBy="publish date" family={family} /> : null}
      {SECTION_ORDERS.map((orderBy) => (
        <Section key={orderBy} orderBy={orderBy} family={family} />
      ))}
    </div>
  );
}
