import { Link } from 'react-router';

/**
 * How to get an item when no IDE runs on this machine, on the item's own page: its downloads, and how to add
 * this marketplace to an IDE as a plugin repository (an IDE installs from its repositories, not from here).
 */
export function GetItem({ versionsPath }: { versionsPath: string }) {
  const repositoryUrl = `${location.origin}/plugins/list`;
  return (
    <span className="site-get-item">
      <Link className="mp-button" to={versionsPath}>
        Download
      </Link>
      <details className="site-get-item__ide">
        <summary>Install from your IDE</summary>
        <p>
          In the IDE, open Settings | Plugins | ⚙ | Manage Plugin Repositories, add{' '}
          <code>{repositoryUrl}</code>, then find this item in the Marketplace tab.
        </p>
      </details>
    </span>
  );
}
