import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import type { Database, DatabaseConnection } from '../../db/client';
import type { FileStore } from '../../storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Drizzle database (PGlite or PostgreSQL). */
    db: Database;
    /** Which engine serves `db`, for the rare query that must differ. */
    databaseKind: DatabaseConnection['kind'];
    /** The connection itself, for its pool use and query timing (src/admin/performance). */
    databaseConnection: DatabaseConnection;
    fileStore: FileStore;
    config: Config;
  }
}

export interface ServicesOptions {
  database: DatabaseConnection;
  fileStore: FileStore;
  config: Config;
}

/** Makes the database, the file store and the configuration reachable from every route as `app.<name>`. */
export default fp(
  async function services(app: FastifyInstance, options: ServicesOptions) {
    app.decorate('db', options.database.db);
    app.decorate('databaseKind', options.database.kind);
    app.decorate('databaseConnection', options.database);
    app.decorate('fileStore', options.fileStore);
    app.decorate('config', options.config);
  },
  { name: 'services', fastify: '5.x' },
);
