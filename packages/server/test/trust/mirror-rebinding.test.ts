import type { LookupAddress } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import { addressRuleFor, RefusedAddressError } from '../../src/trust/mirror/addresses';

/** What the name server answers for the upstream's name, look-up after look-up (a rebinding name server). */
const answers: LookupAddress[][] = [];

vi.mock('node:dns/promises', () => ({
  lookup: () => Promise.resolve(answers.shift() ?? []),
}));
vi.mock('node:dns', () => ({
  lookup: (
    _hostname: string,
    _options: unknown,
    callback: (error: Error | null, addresses: LookupAddress[]) => void,
  ) => callback(null, answers.shift() ?? []),
}));

function lookUp(rule: Awaited<ReturnType<typeof addressRuleFor>>, url: string): Promise<unknown> {
  return new Promise((resolve) => {
    rule.lookupFor(new URL(url))(new URL(url).hostname, { all: true }, (problem, found) =>
      resolve(problem ?? found),
    );
  });
}

describe('an upstream on a private network whose name server changes its answers', () => {
  it('reaches only the private addresses its name had when the sync started', async () => {
    answers.push([{ address: '10.0.0.5', family: 4 }]);
    const rule = await addressRuleFor('http://mirror.internal:8080');

    answers.push([{ address: '10.0.0.5', family: 4 }]);
    expect(await lookUp(rule, 'http://mirror.internal:8080/plugins/list/')).toEqual([
      { address: '10.0.0.5', family: 4 },
    ]);

    // Later in the same sync the name points at the cloud's metadata service: refused.
    answers.push([{ address: '169.254.169.254', family: 4 }]);
    const rebound = await lookUp(rule, 'http://mirror.internal:8080/latest/meta-data/');
    expect(rebound).toBeInstanceOf(RefusedAddressError);
    expect((rebound as Error).message).toBe(
      'http://mirror.internal:8080/latest/meta-data/ was not fetched: mirror.internal (169.254.169.254) is a link-local address (where clouds answer instance metadata). The mirror fetches only from the upstream http://mirror.internal:8080 and from hosts on public addresses.',
    );
  });
});
