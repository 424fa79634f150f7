import type { Plugin } from '@marketplace/api-client';
import {
  downloadWording,
  formatDisplayDate,
  hasThemeTag,
  IDE_PRODUCT_KEYS,
  IDE_PRODUCTS,
  isValidWebsite,
  itemNoun,
  NO_DESCRIPTION,
  normalizeLink,
  productFullName,
} from '@marketplace/core';
import { DownloadsChart, useDailyDownloads } from '@marketplace/ui';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SafeHtml } from '../../components/SafeHtml';
import { useSiteOrigin } from '../../lib/server-render';

/** Items of a facts-list value, one after the other, separated by commas. */
function Commas({ items }: { items: { key: string; node: ReactNode }[] }) {
  return items.map(({ key, node }, index) => (
    <Fragment key={key}>
      {index > 0 ? ', ' : null}
      {node}
    </Fragment>
  ));
}

/** The names of the IDE products the item runs on, in the catalogue's order (spec §3). */
function compatibleProductNames(products: Plugin['compatibleProducts']): string[] {
  return [...new Set(products)]
    .sort((a, b) => IDE_PRODUCT_KEYS.indexOf(a) - IDE_PRODUCT_KEYS.indexOf(b))
    .map((key) => productFullName(IDE_PRODUCTS[key]));
}

/** The items a bundle groups (spec §3, bundles): shown on the bundle's page, linking to each item. */
function BundleMembers({ plugin }: { plugin: Plugin }) {
  if (plugin.bundles.data.length === 0) return null;
  return (
    <section aria-labelledby="bundle-heading" className="site-side-block">
      <h2 id="bundle-heading">
        {itemNoun(plugin.info.family, { plural: true, capitalised: true })} in this bundle
      </h2>
      <ul className="site-link-list">
        {plugin.bundles.data.map((member) => (
          <li key={member.id}>
            <Link to={member.link}>{member.name}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The bundles that include the item (spec §3, the reverse of a bundle's members), linked; for a theme, the
 * plugins that ship it. Hidden when there are none (and before fullInfo has brought them).
 */
function IncludedIn({ plugin }: { plugin: Plugin }) {
  const bundles = plugin.includedIn ?? [];
  if (bundles.length === 0) return null;
  const family = plugin.info.family;
  const isTheme = hasThemeTag(plugin.tags);
  return (
    <section aria-labelledby="included-in-heading" className="site-side-block">
      <h2 id="included-in-heading">{isTheme ? 'Provided by' : 'Included in'}</h2>
      <p className="site-muted">
        {isTheme
          ? `${itemNoun(family, { plural: true, capitalised: true })} that ship this theme`
          : `Bundles that install this ${itemNoun(family)} with others`}
      </p>
      <ul className="site-link-list">
        {bundles.map((bundle) => (
          <li key={bundle.id}>
            <Link to={bundle.link}>{bundle.name}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

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
  const downloads = useDailyDownloads(useSiteOrigin(), plugin.id);
  const description = plugin.info.description.trim();
  const developers = plugin.developers.data;
  const products = compatibleProductNames(plugin.compatibleProducts);
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
          <h2 id="downloads-heading">
            {downloadWording(plugin.info.family, { plural: true, capitalised: true })} in the last 30 days
          </h2>
          <DownloadsChart
            family={plugin.info.family}
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
            {developers.length ? (
              <>
                <dt>Developers</dt>
                <dd>
                  <Commas
                    items={developers.map((developer) => ({
                      key: developer.id,
                      node: <Link to={developer.link}>{developer.name || developer.login}</Link>,
                    }))}
                  />
                </dd>
              </>
            ) : null}
            {products.length ? (
              <>
                <dt>Compatible with</dt>
                <dd>{products.join(', ')}</dd>
              </>
            ) : null}
            {plugin.themes.length ? (
              <>
                <dt>Themes</dt>
                <dd>
                  {plugin.themes
                    .map((theme) => `${theme.name} (${theme.dark ? 'dark' : 'light'})`)
                    .join(', ')}
                </dd>
              </>
            ) : null}
            <dt>{itemNoun(plugin.info.family, { capitalised: true })} ID</dt>
            <dd>
              <code>{plugin.info.xmlId}</code>
            </dd>
          </dl>
        </section>
        <IncludedIn plugin={plugin} />
        <BundleMembers plugin={plugin} />
      </aside>
    </div>
  );
}
