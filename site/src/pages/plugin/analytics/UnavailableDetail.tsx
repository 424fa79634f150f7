import { isApiError } from '@marketplace/api-client';
import { errorText } from '../../../lib/errors';

/**
 * Under 'Statistics temporarily unavailable': what the server said when the question itself was refused (a
 * 4xx, such as a range it does not answer); nothing for its own failures, whose details are not for users.
 */
export function UnavailableDetail({ error }: { error: unknown }) {
  if (!isApiError(error) || error.status >= 500) return null;
  const text = errorText(error);
  return text ? <p className="site-muted">{text}</p> : null;
}
