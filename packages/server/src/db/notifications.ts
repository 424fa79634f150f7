import pg from 'pg';

export interface NotificationOptions {
  /** What to do when a channel is notified (the payload is not used: it only says "look now"). */
  channels: Record<string, () => void>;
  /**
   * Called after the connection came back: notifications sent while it was away are lost, so the listener
   * looks for what it missed (the readers catch up from their own watermarks).
   */
  onReconnect: () => void;
  /** Where a lost connection or a failed reconnect is reported. */
  onError?: (error: Error) => void;
  /** Waits between attempts to reconnect: doubling from the first to the last. */
  retryMs?: { first: number; last: number };
}

export interface NotificationListener {
  /** Resolves once the first LISTEN is in place (a test waits for it; the server does not need to). */
  readonly ready: Promise<void>;
  /** Whether the connection is up and listening now. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/**
 * Listens to PostgreSQL notifications (`LISTEN`) on a connection of its own, outside the pool: a pooled
 * connection would be handed to other queries and its LISTEN lost. When the connection is lost (the server
 * restarted, `pg_terminate_backend`, a network cut) it reconnects by itself, with growing waits, and calls
 * `onReconnect` so that nothing notified in between is missed.
 */
export function listenForNotifications(
  databaseUrl: string,
  options: NotificationOptions,
): NotificationListener {
  const { first, last } = options.retryMs ?? { first: 250, last: 5000 };
  const onError = options.onError ?? (() => {});
  let client: pg.Client | undefined;
  let closed = false;
  let listening = false;
  let connectedBefore = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let wait = first;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const retry = () => {
    listening = false;
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, wait);
    retryTimer.unref();
    wait = Math.min(wait * 2, last);
  };

  const connect = async () => {
    const connection = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    client = connection;
    // Without a listener, an 'error' event would end the process; a lost connection is retried instead.
    connection.on('error', (error) => {
      onError(error);
      retry();
    });
    connection.on('end', retry);
    connection.on('notification', (message) => options.channels[message.channel]?.());
    try {
      await connection.connect();
      for (const channel of Object.keys(options.channels)) {
        await connection.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
    } catch (error) {
      onError(error as Error);
      connection.removeAllListeners('end');
      await connection.end().catch(() => {});
      retry();
      return;
    }
    if (closed) {
      await connection.end().catch(() => {});
      return;
    }
    listening = true;
    wait = first;
    if (connectedBefore) options.onReconnect();
    connectedBefore = true;
    markReady();
  };

  void connect();
  return {
    ready,
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retryTimer);
      const connection = client;
      if (connection) {
        connection.removeAllListeners('end');
        await connection.end().catch(() => {});
      }
    },
  };
}
