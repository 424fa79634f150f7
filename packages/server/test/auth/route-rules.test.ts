import { describe, expect, it } from 'vitest';
import { checkRouteRule, RouteRuleError } from '../../src/auth/authorization';

describe('checkRouteRule (the startup check of access rules)', () => {
  it('stops a write route that declares no rule, naming it', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'delete']) {
      expect(() => checkRouteRule({ method, url: '/api/plugins/:id', config: {} })).toThrow(
        new RegExp(`${method.toUpperCase()} /api/plugins/:id changes data but declares no access rule`),
      );
    }
    expect(() => checkRouteRule({ method: ['GET', 'POST'], url: '/x', config: undefined })).toThrow(
      RouteRuleError,
    );
  });

  it('lets reads without a rule through (they are public)', () => {
    expect(() => checkRouteRule({ method: 'GET', url: '/api/plugins', config: {} })).not.toThrow();
    expect(() => checkRouteRule({ method: ['GET', 'HEAD'], url: '/api/plugins', config: {} })).not.toThrow();
  });

  it('accepts every declared rule', () => {
    const ownerOf = async () => [1];
    for (const auth of [
      { rule: 'public' },
      { rule: 'signed-in' },
      { rule: 'signed-in', scope: 'upload' },
      { rule: 'admin', scope: 'manage' },
      { rule: 'owner', ownerOf },
    ]) {
      expect(() => checkRouteRule({ method: 'POST', url: '/x', config: { auth } as never })).not.toThrow();
    }
  });

  it('stops unknown rules and scopes, and owner rules that cannot find the owners', () => {
    const check = (auth: unknown) => () =>
      checkRouteRule({ method: 'POST', url: '/x', config: { auth } as never });
    expect(check({ rule: 'developer' })).toThrow(/unknown access rule/);
    expect(check({ rule: 'signed-in', scope: 'everything' })).toThrow(/unknown token scope "everything"/);
    expect(check({ rule: 'owner' })).toThrow(/no ownerOf function/);
    expect(check('admin')).toThrow(/unknown access rule/);
  });
});
