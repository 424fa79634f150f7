import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { publishingOptionsFromEnv } from '../../src/publishing/options';

describe('loadConfig', () => {
  it('serves the embedded database with the demo catalogue on port 8080 by default', () => {
    const config = loadConfig({}, [], '/srv/marketplace');
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/marketplace/.data',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      loadDemo: true,
      logLevel: 'info',
      cacheMaxAgeSeconds: 60,
      responseCacheMs: 5000,
    });
    expect(config.auth.publicUrl).toBe('http://localhost:8080');
  });

  it('reads the environment', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '0.0.0.0',
        DATA_DIR: '/var/lib/mp',
        DATABASE_URL: 'postgres://mp@db/mp',
        PUBLIC_URL: 'https://plugins.example.com/',
        LOG_LEVEL: 'WARN',
      },
      [],
      '/srv',
    );
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/mp',
      databaseUrl: 'postgres://mp@db/mp',
      publicUrl: 'https://plugins.example.com',
      logLevel: 'warn',
    });
  });

  it('believes X-Forwarded-For only when told it runs behind a proxy', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toBe('10.0.0.1, 10.0.0.2');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(
      new ConfigError('TRUST_PROXY must be true, false or a list of proxy addresses, got "everyone".'),
    );
  });

  it.each([
    [{}, ['--no-demo']],
    [{ DEMO: 'false' }, []],
    [{ NO_DEMO: '1' }, []],
  ])('lets the demo catalogue be turned off (%j %j)', (env, argv) => {
    expect(loadConfig(env, argv).loadDemo).toBe(false);
  });

  it.each([
    [{ PORT: 'eighty' }, [], 'PORT must be a whole number from 0 to 65535, got "eighty".'],
    [{ PORT: '70000' }, [], 'PORT must be a whole number from 0 to 65535, got "70000".'],
    [{ DEMO: 'maybe' }, [], 'DEMO must be true or false, got "maybe".'],
    [
      { DATABASE_URL: 'mysql://x' },
      [],
      'DATABASE_URL must be a postgres:// or postgresql:// connection string.',
    ],
    [
      { PUBLIC_URL: 'plugins.example.com' },
      [],
      'PUBLIC_URL must be an absolute http(s) address, got "plugins.example.com".',
    ],
    [
      { LOG_LEVEL: 'loud' },
      [],
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud".',
    ],
    [{}, ['--fast'], 'Unknown option "--fast". Known options: --no-demo.'],
  ])('refuses %j %j with a message for the person starting it', (env, argv, message) => {
    expect(() => loadConfig(env, argv)).toThrow(new ConfigError(message));
  });
});

describe('publishingOptionsFromEnv', () => {
  it('lets the operator set the archive entry limits, and refuses a limit that is not a whole number', () => {
    expect(publishingOptionsFromEnv({}).archiveLimits).toEqual({
      maxEntries: 40_000,
      maxTotalEntries: 60_000,
    });
    expect(
      publishingOptionsFromEnv({ MAX_ARCHIVE_ENTRIES: '90000', MAX_ARCHIVE_TOTAL_ENTRIES: '150000' })
        .archiveLimits,
    ).toEqual({ maxEntries: 90_000, maxTotalEntries: 150_000 });
    expect(() => publishingOptionsFromEnv({ MAX_ARCHIVE_TOTAL_ENTRIES: 'lots' })).toThrow(
      'MAX_ARCHIVE_TOTAL_ENTRIES must be a whole number from 10 to 1000000, got "lots".',
    );
  });
});
