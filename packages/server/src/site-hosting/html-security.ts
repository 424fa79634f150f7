import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthConfig } from '../auth/config';
import { identityOriginOf } from './identity-origin';
import { pageSecurityHeaders } from './security-headers';

/**
 * The one place every HTML answer gets its security headers: whatever route made it (the site's pages, the
 * API overview at /, an error page), an answer of type text/html that set no Content-Security-Policy of its
 * own leaves with the site's: no framing, no inline script, nosniff, a referrer policy. Routes with stricter
 * or different needs (the sign-in page, embeds that exist to be framed, sandboxed webhelp) set theirs, and
 * those stand; what they leave out is filled in. Registered before the answer cache, so a kept answer is replayed with them.
 */
export default fp(
  async function htmlSecurityHeaders(app: FastifyInstance, options: { auth: AuthConfig }) {
    const headers = pageSecurityHeaders({ identityOrigin: identityOriginOf(options.auth), framable: false });
    app.addHook('onSend', async (_request, reply, payload) => {
      const type = reply.getHeader('content-type');
      if (typeof type !== 'string' || !type.startsWith('text/html')) return payload;
      // Each header the route left out is filled in; one it set (a stricter policy) stands.
      for (const [name, value] of Object.entries(headers)) {
        if (name !== 'x-frame-options' && !reply.hasHeader(name)) reply.header(name, value);
      }
      // X-Frame-Options follows the policy that stands: a page made to be framed (an embed) must not get it.
      const policy = String(reply.getHeader('content-security-policy'));
      if (!reply.hasHeader('x-frame-options') && policy.includes("frame-ancestors 'none'"))
        reply.header('x-frame-options', 'DENY');
      return payload;
    });
  },
  { name: 'html-security-headers', fastify: '5.x' },
);
