import type { Plugin } from '@marketplace/api-client';
import {
  IDE_PRODUCT_KEYS,
  IDE_PRODUCTS,
  itemNoun,
  productFullName,
  type IdeProductKey,
} from '@marketplace/core';
import { useState, type FormEvent } from 'react';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { useLoad } from '../../lib/use-load';
import { Block, useSave } from './manage-parts';

/**
 * The IDE products an item runs on (GET /api/plugins/{id}/compatible-products, saved with POST
 * .../compatibility): a box for each product of the item's family, and for any other product it is set to.
 * None ticked means every product of the family.
 */
export function CompatibleProductsBlock({ plugin }: { plugin: Plugin }) {
  const [loaded, reload] = useLoad((signal) => api.getCompatibleProducts(plugin.id, { signal }), [plugin.id]);
  return (
    <Block title="Compatible products">
      {loaded.status === 'pending' ? <p className="site-muted">Loading…</p> : null}
      {loaded.status === 'rejected' ? (
        <p className="site-error" role="alert">
          {errorText(loaded.error)}
        </p>
      ) : null}
      {loaded.status === 'resolved' ? (
        <ProductsForm key={loaded.data.join(',')} plugin={plugin} current={loaded.data} onSaved={reload} />
      ) : null}
    </Block>
  );
}

function ProductsForm({
  plugin,
  current,
  onSaved,
}: {
  plugin: Plugin;
  current: readonly IdeProductKey[];
  onSaved: () => void;
}) {
  const { busy, save } = useSave();
  const [chosen, setChosen] = useState<ReadonlySet<IdeProductKey>>(() => new Set(current));
  const shown = IDE_PRODUCT_KEYS.filter(
    (key) => IDE_PRODUCTS[key].family === plugin.info.family || current.includes(key),
  );
  const noun = itemNoun(plugin.info.family);

  async function submit(event: FormEvent) {
    event.preventDefault();
    // In the catalogue's order, whatever order they were ticked in.
    const products = IDE_PRODUCT_KEYS.filter((key) => chosen.has(key));
    if (await save('Compatible products', () => api.setCompatibleProducts(plugin.id, products))) onSaved();
  }

  function toggle(key: IdeProductKey, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(key);
    else next.delete(key);
    setChosen(next);
  }

  return (
    <form className="site-form" onSubmit={submit} aria-label="Compatible products">
      <p className="site-muted">
        {chosen.size === 0
          ? `None ticked: the ${noun} is offered for every product of its family.`
          : `The ${noun} is offered for the ${chosen.size === 1 ? 'product' : `${chosen.size} products`} ticked.`}
      </p>
      <fieldset className="site-products">
        <legend>Products</legend>
        {shown.map((key) => (
          <label key={key}>
            <input
              type="checkbox"
              checked={chosen.has(key)}
              onChange={(event) => toggle(key, event.target.checked)}
            />
            {productFullName(IDE_PRODUCTS[key])}
          </label>
        ))}
      </fieldset>
      <div className="site-form-actions">
        <button type="submit" className="mp-button" disabled={busy}>
          Save compatible products
        </button>
      </div>
    </form>
  );
}
