import { Link } from '@marketplace/ui';
import { useState } from 'react';
import { useServerRender } from '../lib/server-render';
import { readSiteLinks, type SiteLinks } from '../lib/site-links';
import '../styles/site-footer.css';

/**
 * The footer's fixed external links (spec §2), those the operator set: the vendor's social channels, blog,
 * video playlist, issue tracker, forum, privacy page and support mailbox. Nothing is rendered when none is set.
 * External addresses open in a new window, the mailbox in this one (ui's Link, spec §5).
 */
export function SiteFooterLinks({ links: given }: { links?: SiteLinks }) {
  const server = useServerRender();
  const [links] = useState(() => given ?? server?.links ?? readSiteLinks());
  const items: { key: string; label: string; href: string; text?: string }[] = [
    ...links.social.map((channel, index) => ({
      key: `social-${index}`,
      label: channel.label,
      href: channel.url,
    })),
    ...(links.blog ? [{ key: 'blog', label: 'Blog', href: links.blog }] : []),
    ...(links.videos ? [{ key: 'videos', label: 'Videos', href: links.videos }] : []),
    ...(links.issueTracker ? [{ key: 'issues', label: 'Report an issue', href: links.issueTracker }] : []),
    ...(links.forum ? [{ key: 'forum', label: 'Forum', href: links.forum }] : []),
    ...(links.privacy ? [{ key: 'privacy', label: 'Privacy policy', href: links.privacy }] : []),
    ...(links.supportEmail
      ? [{ key: 'support', label: 'Support', href: `mailto:${links.supportEmail}`, text: links.supportEmail }]
      : []),
  ];
  if (items.length === 0) return null;
  return (
    <nav className="site-footer__links" aria-label="Marketplace links">
      <ul>
        {items.map((item) => (
          <li key={item.key}>
            {item.text ? (
              <>
                {item.label}:{' '}
                <Link href={item.href} className="site-footer__external">
                  {item.text}
                </Link>
              </>
            ) : (
              <Link href={item.href} className="site-footer__external">
                {item.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
