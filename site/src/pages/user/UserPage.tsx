import {
  COMMENTS_PAGE_SIZE,
  formatDisplayDate,
  itemNoun,
  sharedFamily,
  USER_PLUGINS_PAGE_SIZE,
} from '@marketplace/core';
import { StarRating } from '@marketplace/ui';
import { Link, useParams, useSearchParams } from 'react-router';
import { ItemGrid } from '../../components/ItemGrid';
import { api } from '../../lib/api';
import { errorText, isNotFound } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useLoad } from '../../lib/use-load';
import NotFoundPage from '../NotFoundPage';

function pageParam(params: URLSearchParams, name: string): number {
  const value = Number(params.get(name) ?? '1');
  return Number.isInteger(value) && value >= 1 && value <= 10_000 ? value : 1;
}

/** A person's page: the items they publish (12 a page) and the reviews they wrote (20 a page). */
export default function UserPage() {
  const { userId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const id = /^\d{1,10}$/.test(userId) ? Number(userId) : undefined;
  const pluginsPage = pageParam(params, 'plugins');
  const commentsPage = pageParam(params, 'comments');
  const [user] = useLoad(
    (signal) => (id === undefined ? Promise.reject(new Error('not found')) : api.getUser(id, { signal })),
    [id],
  );
  const [plugins] = useLoad(
    (signal) =>
      id === undefined
        ? Promise.reject(new Error('not found'))
        : api.getUserPlugins(id, { page: pluginsPage, size: USER_PLUGINS_PAGE_SIZE }, { signal }),
    [id, pluginsPage],
  );
  const [comments] = useLoad(
    (signal) =>
      id === undefined
        ? Promise.reject(new Error('not found'))
        : api.getUserComments(id, { page: commentsPage, size: COMMENTS_PAGE_SIZE }, { signal }),
    [id, commentsPage],
  );
  const userName = user.status === 'resolved' ? user.data.name || user.data.login : undefined;
  usePageTitle(userName, {
    description: `The items ${userName} publishes on the marketplace and the reviews they wrote.`,
  });
  // The list is called by its family's plural when every item shown is of one family ('Courses'), else 'Items'.
  const listFamily = plugins.status === 'resolved' ? sharedFamily(plugins.data.data) : undefined;
  const listNoun = itemNoun(listFamily, { plural: true, capitalised: true });
  if (id === undefined || (user.status === 'rejected' && isNotFound(user.error))) return <NotFoundPage />;

  function go(name: string, page: number) {
    const next = new URLSearchParams(params);
    next.set(name, String(page));
    setParams(next);
  }

  return (
    <div className="site-page">
      <h1>{user.status === 'resolved' ? user.data.name || user.data.login : '\u00a0'}</h1>
      {user.status === 'rejected' ? <p className="site-error">{errorText(user.error)}</p> : null}
      <section className="site-section" aria-labelledby="user-plugins">
        <h2 id="user-plugins">{listNoun}</h2>
        {plugins.status === 'rejected' ? <p className="site-error">{errorText(plugins.error)}</p> : null}
        {plugins.status === 'resolved' && plugins.data.data.length === 0 ? (
          <p className="site-muted">No published items.</p>
        ) : (
          <ItemGrid
            label={listNoun}
            items={plugins.status === 'resolved' ? plugins.data.data : undefined}
            skeletons={USER_PLUGINS_PAGE_SIZE}
          />
        )}
        {plugins.status === 'resolved' && (pluginsPage > 1 || plugins.data.links.next) ? (
          <nav
            className="site-pagination"
            aria-label={`${itemNoun(listFamily, { capitalised: true })} pages`}
          >
            <button type="button" disabled={pluginsPage <= 1} onClick={() => go('plugins', pluginsPage - 1)}>
              Previous
            </button>
            <button
              type="button"
              disabled={!plugins.data.links.next}
              onClick={() => go('plugins', pluginsPage + 1)}
            >
              Next
            </button>
          </nav>
        ) : null}
      </section>
      <section className="site-section" aria-labelledby="user-comments">
        <h2 id="user-comments">Reviews</h2>
        {comments.status === 'rejected' ? <p className="site-error">{errorText(comments.error)}</p> : null}
        {comments.status === 'resolved' && comments.data.data.length === 0 ? (
          <p className="site-muted">No reviews yet.</p>
        ) : null}
        {comments.status === 'resolved'
          ? comments.data.data.map((comment) => (
              <article key={comment.id} className="site-review">
                <header>
                  <StarRating value={comment.rating} size="s" />
                  <Link to={comment.plugin.link}>{comment.plugin.name}</Link>
                  <span className="site-muted">{formatDisplayDate(comment.cdate)}</span>
                </header>
                {comment.comment ? <p className="site-review__text">{comment.comment}</p> : null}
              </article>
            ))
          : null}
        {comments.status === 'resolved' && (commentsPage > 1 || comments.data.links.next) ? (
          <nav className="site-pagination" aria-label="Review pages">
            <button
              type="button"
              disabled={commentsPage <= 1}
              onClick={() => go('comments', commentsPage - 1)}
            >
              Previous
            </button>
            <button
              type="button"
              disabled={!comments.data.links.next}
              onClick={() => go('comments', commentsPage + 1)}
            >
              Next
            </button>
          </nav>
        ) : null}
      </section>
    </div>
  );
}
