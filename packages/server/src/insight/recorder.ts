import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  consentFromCookies,
  mayHashVisitor,
  readIdeClient,
  type ConsentChoice,
  type ConsentRequirement,
} from '@marketplace/core';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { selectRows } from '../search/sql';
import type { CountryLookup } from './geo';

/** What a request tells about its client, read once per request. */
export interface ClientFacts {
  productCode: string;
  build: string;
  branch: number;
  fromIde: boolean;
  country: string;
  /**
   * A daily-salted hash of address and User-Agent: the same client on the same day, nothing more. Null
   * when the request has no consent for it (CONSENT_REQUIRED, or a decline): counted, but not told apart.
   */
  visitor: bigint | null;
}

/** The parts of a request the recorder reads. */
export interface ClientRequest {
  /** The client address as Fastify resolved it (X-Forwarded-For only from trusted proxies, TRUST_PROXY). */
  ip: string;
  userAgent: string | undefined;
  /** The `build` query parameter the IDE adds to its download and update URLs. */
  buildParameter: string | undefined;
  /** The visitor's consent the request carries (the browser's cookie); the IDE's own requests carry none. */
  consent?: ConsentChoice | undefined;
}

export interface DownloadedVersion {
  pluginId: number;
  version: string;
  channel: string;
}

const MAX_USER_AGENT_LENGTH = 512;

function utcDay(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

/**
 * Writes downloads and update checks as insight events. The address is used for the country and the day's
 * visitor hash and then forgotten: events hold neither the address nor anything that leads back to it once
 * the day's salt is deleted (the roll-up job deletes it the next day).
 */
export class InsightRecorder {
  private salt: { day: string; value: Promise<Buffer> } | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly countries: CountryLookup,
    /** The operator's CONSENT_REQUIRED: whose requests need consent before a visitor hash is made. */
    private readonly consentRequired: ConsentRequirement = 'none',
  ) {}

  async describe(request: ClientRequest, at: Date): Promise<ClientFacts> {
    const client = readIdeClient(request.userAgent, request.buildParameter);
    const country = this.countries.countryOf(request.ip);
    if (!mayHashVisitor(this.consentRequired, request.consent, client.fromIde)) {
      return { ...client, country, visitor: null };
    }
    const salt = await this.saltOf(utcDay(at));
    const digest = createHmac('sha256', salt)
      .update(request.ip)
      .update('\0')
      .update((request.userAgent ?? '').slice(0, MAX_USER_AGENT_LENGTH))
      .digest();
    return {
      ...client,
      country,
      // 63 bits: a positive bigint column value.
      visitor: digest.readBigInt64BE(0) & 0x7fff_ffff_ffff_ffffn,
    };
  }

  /** Records one download; call it in the transaction that counts the download, so both or neither happen. */
  async recordDownload(
    tx: Queryable,
    facts: ClientFacts,
    version: DownloadedVersion,
    at: Date,
  ): Promise<void> {
    await tx.execute(sql`INSERT INTO insight_events
        (occurred_at, kind, plugin_id, version, channel, product_code, build, branch, from_ide, country, visitor)
      VALUES (${at}, 'download', ${version.pluginId}, ${version.version}, ${version.channel},
        ${facts.productCode}, ${facts.build}, ${facts.branch}, ${facts.fromIde}, ${facts.country}, ${facts.visitor})`);
  }

  /** Records that an IDE asked for updates of these plugins (one statement for the whole list). */
  async recordUpdateChecks(facts: ClientFacts, pluginIds: readonly number[], at: Date): Promise<void> {
    if (pluginIds.length === 0) return;
    const ids = [...new Set(pluginIds)];
    await this.db.execute(sql`INSERT INTO insight_events
        (occurred_at, kind, plugin_id, product_code, build, branch, from_ide, country, visitor)
      SELECT ${at}, 'update-check', id, ${facts.productCode}, ${facts.build}, ${facts.branch}, ${facts.fromIde},
        ${facts.country}, ${facts.visitor}
      FROM unnest(${sql.raw(`'{${ids.map(Number).join(',')}}'::int[]`)}) AS id`);
  }

  /** The day's salt, shared by every node through the database and created by whichever asks first. */
  private saltOf(day: string): Promise<Buffer> {
    if (this.salt?.day !== day) {
      const value = (async () => {
        await this.db.execute(
          sql`INSERT INTO insight_salts (day, salt) VALUES (${day}, ${randomBytes(32)}) ON CONFLICT (day) DO NOTHING`,
        );
        const [row] = await selectRows<{ salt: Buffer | Uint8Array }>(
          this.db,
          sql`SELECT salt FROM insight_salts WHERE day = ${day}`,
        );
        if (!row) throw new Error(`The visitor salt of ${day} is missing.`);
        return Buffer.from(row.salt);
      })();
      // A failed read is not kept: the next request tries again.
      value.catch(() => {
        if (this.salt?.value === value) this.salt = undefined;
      });
      this.salt = { day, value };
    }
    return this.salt.value;
  }
}

/**
 * Counts an IDE's update check of the plugins an answer covers. Statistics must never fail an update
 * check: a failure to record is logged and the IDE gets its answer.
 */
export async function countUpdateChecks(
  request: FastifyRequest,
  build: string | undefined,
  pluginIds: readonly number[],
): Promise<void> {
  const recorder = request.server.insightRecorder;
  try {
    const at = new Date();
    const facts = await recorder.describe(
      {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        buildParameter: build,
        consent: consentFromCookies(request.headers.cookie),
      },
      at,
    );
    await recorder.recordUpdateChecks(facts, pluginIds, at);
  } catch (error) {
    request.log.error({ err: error }, 'recording update checks failed');
  }
}
