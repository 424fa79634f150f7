import { LoadingPlaceholder } from '@marketplace/ui';

export function PageLoading() {
  return (
    <div className="site-page" aria-busy="true">
      <LoadingPlaceholder />
    </div>
  );
}
