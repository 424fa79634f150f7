import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { Reader } from 'maxmind';

/**
 * The country of a client address, looked up in process in an MMDB database: by default the CC0 country
 * database of the `@ip-location-db/geo-whois-asn-country-mmdb` package (built from the regional internet
 * registries' records, refreshed with each release of the package), or the operator's own file
 * (GEOIP_DATABASE, e.g. MaxMind's GeoLite2-Country.mmdb, whose records carry `country.iso_code`).
 */
export interface CountryLookup {
  /** The ISO 3166-1 alpha-2 code, '' when the address is private, unknown or not an address. */
  countryOf(address: string): string;
}

interface CountryRecord {
  /** ip-location-db's databases. */
  country_code?: string;
  /** MaxMind's GeoLite2 and GeoIP2 databases. */
  country?: { iso_code?: string };
}

const DEFAULT_DATABASE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

/** Opens the database once (about 8 MB, read into memory); lookups then take about a microsecond. */
export async function openCountryLookup(path?: string): Promise<CountryLookup> {
  const file = path ?? createRequire(import.meta.url).resolve(DEFAULT_DATABASE);
  const reader = new Reader(await readFile(file));
  return {
    countryOf(address: string): string {
      // Node gives IPv4 clients of a dual-stack socket as IPv4-mapped IPv6 addresses.
      const plain =
        address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
      if (isIP(plain) === 0) return '';
      const record = reader.get(plain) as CountryRecord | null;
      const code = record?.country_code ?? record?.country?.iso_code ?? '';
      return /^[A-Z]{2}$/.test(code) ? code : '';
    },
  };
}
