import { itemNoun, type ProductFamily } from '@marketplace/core';
import { Link } from 'react-router';
import { useSiteOrigin } from '../../lib/server-render';

/**
 * How to get an item when no IDE runs on this machine, on the item's own page: its downloads, and, for the
 * IntelliJ-based IDEs (the only ones that install from plugin repositories), how to add this marketplace to
 * the IDE. The item is called by its family's noun.
 */
export function GetItem({ versionsPath, family }: { versionsPath: string; family: ProductFamily }) {
  const repositoryUrl = `${useSiteOrigin()}/plugins/list`;
  return (
    <span className="site-get-item">
      <Link className="mp-button" to={versionsPath}>
        Download
      </Link>
      {family === 'intellij' ? (
        <details className="site-get-item__ide">
          <summary>Install from your IDE</summary>
          <p>
            In the IDE, open Settings | Plugins | ⚙ | Manage Plugin Repositories, add{' '}
            <code>{repositoryUrl}</code>, then find this {itemNoun(family)} in the Marketplace tab.
          </p>
          <p>
            Plugins uploaded here are countersigned by this marketplace:{' '}
            <Link to="/trust/certificate">trust its certificate</Link> so that the IDE can check them.
          </p>
        </details>
      ) : null}
    </span>
  );
}
