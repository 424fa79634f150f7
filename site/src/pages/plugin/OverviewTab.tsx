import type { Plugin } from '@marketplace/api-client';
import { formatDisplayDate, isValidWebsite, NO_DESCRIPTION, normalizeLink } from '@marketplace/core';
import { DownloadsChart, useDailyDownloads } from '@marketplace/ui';
import { Link } from 'react-router';
import { SafeHtml } from '../../components/SafeHtml';

function ExternalLinks({ plugin }: { plugin: Plugin }) {
  const urls = plugin.urls;
  const links = [
    ['Website', urls.url],
    ['Source code', urls.sourceCodeUrl],
    ['Documentation', urls.docUrl],
    ['Issue tracker', urls.bugtrackerUrl],
    ['Forum', urls.forumUrl],
    ['License', urls.licenseUrl],
    ['Privacy policy', urls.privacyPolicyUrl],
    ...urls.donationLinks.map((link) => [link.name || 'Donate', link.url]),
    ...urls.customContacts.map((link) => [link.title, link.link]),
  ].filter((entry): entry is [string, string] => Boolean(entry[1]) && isValidWebsite(entry[1]));
  if (links.length === 0) return null;
  return (
    <section aria-labelledby="links-heading" className="site-side-block">
      <h2 id="links-heading">Links</h2>
      <ul className="site-link-list">
        {links.map(([label, url]) => (
          <li key={`${label}-${url}`}>
            <a href={normalizeLink(url)} target="_blank" rel="noopener noreferrer nofollow">
              {label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function OverviewTab({ plugin }: { plugin: Plugin }) {
  const downloads = useDailyDownloads(location.origin, plugin.id);
  const description = plugin.info.description.trim();
  return (
    <div className="site-overview">
      <div className="site-overview__main">
        {plugin.screenshots.length ? (
          <ul className="site-screenshots" aria-label="Screenshots">
            {plugin.screenshots.map((screenshot, index) => (
              <li key={screenshot.url}>
                <a href={screenshot.url} target="_blank" rel="noopener noreferrer">
                  <img
                    src={screenshot.url}
                    alt={`Screenshot ${index + 1} of ${plugin.info.name}`}
                    loading="lazy"
                  />
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        {description ? (
          <SafeHtml className="site-prose" html={description} />
        ) : (
          <p className="site-muted">{NO_DESCRIPTION}</p>
        )}
        {plugin.customTabs.map((tab) => (
          <p key={tab.urlSuffix}>
            <a href={tab.contentUrl} target="_blank" rel="noopener noreferrer">
              {tab.tabName}
            </a>
          </p>
        ))}
      </div>
      <aside className="site-overview__side">
        <section aria-labelledby="downloads-heading" className="site-side-block site-chart-block">
          <h2 id="downloads-heading">Downloads in the last 30 days</h2>
          <DownloadsChart
            status={downloads.status}
            {...(downloads.status === 'resolved' ? { points: downloads.data } : {})}
          />
        </section>
        <ExternalLinks plugin={plugin} />
        {plugin.tags.length ? (
          <section aria-labelledby="tags-heading" className="site-side-block">
            <h2 id="tags-heading">Tags</h2>
            <ul className="site-chips">
              {plugin.tags.map((tag) => (
                <li key={tag.id}>
                  <Link className="site-chip" to={tag.link}>
                    {tag.name}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <section className="site-side-block">
          <h2>Details</h2>
          <dl className="site-details">
            <dt>Published</dt>
            <dd>{formatDisplayDate(plugin.info.cdate)}</dd>
            {plugin.vendor.name ? (
              <>
                <dt>Vendor</dt>
                <dd>
                  {plugin.vendor.url && isValidWebsite(plugin.vendor.url) ? (
                    <a
                      href={normalizeLink(plugin.vendor.url)}
                      target="_blank"
                      rel="noopener noreferrer nofollow"
                    >
                      {plugin.vendor.name}
                    </a>
                  ) : (
                    plugin.vendor.name
                  )}
                </dd>
              </>
            ) : null}
            <dt>Plugin ID</dt>
            <dd>
              <code>{plugin.info.xmlId}</code>
            </dd>
          </dl>
        </section>
      </aside>
    </div>
  );
}
