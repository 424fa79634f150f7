import type { MirroredFromBody } from '@marketplace/api-contract';

/**
 * "Mirrored from <host>" for an item this marketplace copied from another one (the server's src/trust/mirror),
 * linking to that marketplace; nothing for items published here.
 */
export function MirroredFrom({ origin }: { origin: MirroredFromBody | undefined }) {
  if (!origin) return null;
  return (
    <span className="site-item__mirrored">
      Mirrored from{' '}
      {/^https?:\/\//i.test(origin.url) ? (
        <a href={origin.url} target="_blank" rel="noopener noreferrer nofollow">
          {origin.host}
        </a>
      ) : (
        origin.host
      )}
    </span>
  );
}
