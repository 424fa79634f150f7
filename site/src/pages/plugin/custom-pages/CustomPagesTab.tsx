import type { Plugin, PublishedPageList } from '@marketplace/api-client';
import { buildPageTree, type PageTreeNode } from '@marketplace/core';
import { Link, useParams } from 'react-router';
import { PageLoading } from '../../../components/PageLoading';
import { SafeHtml } from '../../../components/SafeHtml';
import { api } from '../../../lib/api';
import { errorText, isNotFound } from '../../../lib/errors';
import { usePageTitle } from '../../../lib/page-title';
import { useLoad } from '../../../lib/use-load';
import { TableOfContents } from './TableOfContents';

type PageEntry = PublishedPageList[number];

function PageTree({
  nodes,
  base,
  current,
}: {
  nodes: readonly PageTreeNode<PageEntry>[];
  base: string;
  current: string;
}) {
  return (
    <ul>
      {nodes.map((node) => (
        <li key={node.id}>
          <Link
            to={`${base}/${node.url}`}
            aria-current={node.url === current ? 'page' : undefined}
            className={node.url === current ? 'site-custom-pages__current' : undefined}
          >
            {node.name}
          </Link>
          {node.children.length > 0 ? <PageTree nodes={node.children} base={base} current={current} /> : null}
        </li>
      ))}
    </ul>
  );
}

function PageView({ plugin, url }: { plugin: Plugin; url: string }) {
  const [page] = useLoad(
    (signal) => api.customPages.getPublished(plugin.id, url, { signal }),
    [plugin.id, url],
  );
  usePageTitle(page.status === 'resolved' ? `${page.data.name} - ${plugin.info.name}` : undefined);
  if (page.status === 'pending') return <PageLoading />;
  if (page.status === 'rejected') {
    return (
      <p className="site-error" role="alert">
        {isNotFound(page.error) ? 'This page does not exist or is not published.' : errorText(page.error)}
      </p>
    );
  }
  const data = page.data;
  return (
    <article className="site-custom-pages__page">
      <h2 className="site-custom-pages__title">{data.name}</h2>
      {data.type === 'webhelp' ? (
        data.webhelpUrl ? (
          <p>
            <a className="mp-button" href={data.webhelpUrl} target="_blank" rel="noopener noreferrer">
              Open the documentation
            </a>
          </p>
        ) : null
      ) : (
        <>
          <TableOfContents toc={data.toc} />
          <SafeHtml className="site-prose" html={data.content} />
        </>
      )}
    </article>
  );
}

/** The custom-pages tab: the published pages' tree beside the page at /plugin/{id}-{slug}/custom-pages/{url}. */
export default function CustomPagesTab({ plugin, pages }: { plugin: Plugin; pages: PublishedPageList }) {
  const { page = '' } = useParams();
  const tree = buildPageTree(pages);
  const current = page || tree[0]?.url || '';
  const base = `${plugin.info.link}/custom-pages`;
  return (
    <div className="site-custom-pages">
      <nav className="site-custom-pages__tree" aria-label="Pages">
        <PageTree nodes={tree} base={base} current={current} />
      </nav>
      {current ? (
        <PageView key={current} plugin={plugin} url={current} />
      ) : (
        <p className="site-muted">No pages yet.</p>
      )}
    </div>
  );
}
