import { SOMETHING_WENT_WRONG, TRY_AGAIN } from '@marketplace/core';
import { useRouteError } from 'react-router';

/** Shown when a page fails to load (for example its code after a new release): a way out, not a blank page. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className="site-message" role="alert">
      <h1>{SOMETHING_WENT_WRONG}</h1>
      <button type="button" className="mp-button" onClick={() => location.reload()}>
        {TRY_AGAIN}
      </button>
    </div>
  );
}
