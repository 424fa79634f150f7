import { promises as dns } from 'node:dns';
import type { DnsRecordBody, NamespaceDnsCheckBody } from '@marketplace/api-contract';

type ResolveTxt = (name: string) => Promise<string[][]>;

/**
 * Looks up a claim's TXT record once, for the administrator who decides: what was found is shown, never
 * acted on (DNS answers can be spoofed or stale; the decision stays with a person). Gives up after
 * `timeoutMs`. `resolveTxt` is Node's unless a test passes its own.
 */
export async function checkClaimDns(
  record: DnsRecordBody,
  options: { timeoutMs: number; resolveTxt?: ResolveTxt },
): Promise<NamespaceDnsCheckBody> {
  const resolver = new dns.Resolver({ timeout: options.timeoutMs, tries: 1 });
  const resolveTxt: ResolveTxt = options.resolveTxt ?? ((name) => resolver.resolveTxt(name));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`No answer within ${options.timeoutMs / 1000} s.`)),
      options.timeoutMs,
    );
  });
  try {
    const answers = await Promise.race([resolveTxt(record.name), timeout]);
    const records = answers.map((chunks) => chunks.join(''));
    return { ...record, records, found: records.includes(record.value), error: null };
  } catch (error) {
    resolver.cancel();
    const code = (error as { code?: string }).code;
    const message =
      code === 'ENOTFOUND' || code === 'ENODATA'
        ? `There is no TXT record at ${record.name}.`
        : code
          ? `The lookup failed (${code}).`
          : (error as Error).message;
    return { ...record, records: [], found: false, error: message };
  } finally {
    clearTimeout(timer);
  }
}
