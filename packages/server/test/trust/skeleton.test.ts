import { describe, expect, it } from 'vitest';
import { checkClaimDns } from '../../src/trust/dns';
import { domainOfPrefix, isUnderPrefix } from '../../src/trust/namespaces';
import { normalizePrefix, trustOptionsFromEnv } from '../../src/trust/options';
import { editDistance, foldedDistance, foldedForms, lookalikeKeys } from '../../src/trust/skeleton';

const alike = (a: string, b: string) => lookalikeKeys(a).some((key) => lookalikeKeys(b).includes(key));

describe('look-alike keys', () => {
  it('meet for confusables of other scripts, digits, case and separators', () => {
    expect(alike('com.example.tool', 'com.\u0435xample.tool')).toBe(true); // Cyrillic е
    expect(alike('com.example.tool', 'com.examp1e.tool')).toBe(true);
    expect(alike('Ideal Tool', 'ldeal-tool')).toBe(true); // capital I, small L
    expect(alike('IDEAL TOOL', 'ideal_tool')).toBe(true);
    expect(alike('Code Lens', 'C0DE LENS')).toBe(true);
    expect(alike('Mod', 'rnod')).toBe(true);
    expect(alike('Example\u200BTool', 'ExampleTool')).toBe(true); // a zero-width space is ignored
  });

  it('keep apart what looks different', () => {
    expect(alike('com.example.tool', 'com.example.tools')).toBe(false);
    expect(alike('Rainbow Brackets', 'Rainbow Brackets Lite')).toBe(false);
    expect(alike('café', 'cafe')).toBe(false); // an accent is visible
  });
});

describe('near names', () => {
  it('count transpositions once and stop at the limit', () => {
    expect(editDistance('example', 'exmaple')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
  });

  it('measure on the nearer of the skeleton and the plain letters', () => {
    expect(foldedDistance(foldedForms('Exmaple Tools'), foldedForms('Example Tool'))).toBe(2);
    expect(foldedDistance(foldedForms('Ex\u0430mple Tooo'), foldedForms('Example Tool'))).toBe(1);
  });
});

describe('namespaces', () => {
  it('are normalised prefixes of two segments or more', () => {
    expect(normalizePrefix(' Com.Acme ')).toBe('com.acme.');
    expect(normalizePrefix('com.')).toBeUndefined();
    expect(normalizePrefix('com..acme.')).toBeUndefined();
    expect(normalizePrefix('com.ac me.')).toBeUndefined();
    expect(domainOfPrefix('com.acme.tools.')).toBe('tools.acme.com');
  });

  it('match ids under them, through look-alike letters, but not longer segment names', () => {
    expect(isUnderPrefix('com.acme.tool', 'com.acme.')).toBe(true);
    expect(isUnderPrefix('COM.ACME.tool', 'com.acme.')).toBe(true);
    expect(isUnderPrefix('com.\u0430cme.tool', 'com.acme.')).toBe(true);
    expect(isUnderPrefix('com.acmetools.tool', 'com.acme.')).toBe(false);
  });

  it("take the operator's reserved prefixes beside the defaults, and refuse a malformed one", () => {
    expect(
      trustOptionsFromEnv({ RESERVED_ID_PREFIXES: 'org.example, net.example.' }).reservedPrefixes,
    ).toEqual(['com.jetbrains.', 'com.intellij.', 'org.jetbrains.', 'org.example.', 'net.example.']);
    expect(() => trustOptionsFromEnv({ RESERVED_ID_PREFIXES: 'example' })).toThrow(
      'RESERVED_ID_PREFIXES: "example" is not an id prefix; write it like com.example. (two segments or more).',
    );
  });
});

describe('the DNS check', () => {
  const record = { name: '_marketplace-namespace.acme.com', value: 'marketplace-namespace=abc' };

  it('shows every TXT record found and whether the expected one is there', async () => {
    const found = await checkClaimDns(record, {
      timeoutMs: 1000,
      resolveTxt: async (name) =>
        name === record.name ? [['v=spf1'], ['marketplace-namespace=', 'abc']] : [],
    });
    expect(found).toEqual({
      ...record,
      records: ['v=spf1', 'marketplace-namespace=abc'],
      found: true,
      error: null,
    });
  });

  it('says when there is no record, and gives up after the time limit', async () => {
    const missing = await checkClaimDns(record, {
      timeoutMs: 1000,
      resolveTxt: () => Promise.reject(Object.assign(new Error('queryTxt ENOTFOUND'), { code: 'ENOTFOUND' })),
    });
    expect(missing).toMatchObject({
      found: false,
      error: 'There is no TXT record at _marketplace-namespace.acme.com.',
    });
    const silent = await checkClaimDns(record, { timeoutMs: 50, resolveTxt: () => new Promise(() => {}) });
    expect(silent).toMatchObject({ found: false, records: [], error: 'No answer within 0.05 s.' });
  });
});
