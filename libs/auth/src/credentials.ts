/** What a request presents: `Authorization: Bearer <token>`, the system client's `Basic <id>:<secret>`, or a session cookie. */

export type Credentials =
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'basic'; readonly clientId: string; readonly secret: string };

export const SESSION_COOKIE = 'cairn_session';
/** Not HttpOnly: tells a browser UI who is logged in, as the reference's `actor` cookie does. */
export const ACTOR_COOKIE = 'actor';

function basic(rest: string): Credentials | undefined {
  // The reference's clients send `<id>:<secret>` raw; standard clients (curl -u, Prometheus) base64-encode it.
  const raw = rest.includes(':') ? rest : Buffer.from(rest, 'base64').toString('utf8');
  const colon = raw.indexOf(':');
  if (colon <= 0) return undefined;
  return { kind: 'basic', clientId: raw.slice(0, colon), secret: raw.slice(colon + 1) };
}

/** undefined when there is no header; 'malformed' when there is one this service cannot read. */
export function credentialsOf(authorization: string | undefined): Credentials | 'malformed' | undefined {
  if (authorization === undefined || authorization.trim() === '') return undefined;
  const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(authorization);
  if (!m) return 'malformed';
  const scheme = m[1].toLowerCase();
  if (scheme === 'bearer') return { kind: 'bearer', token: m[2] };
  if (scheme === 'basic') return basic(m[2]) ?? 'malformed';
  return 'malformed';
}

export function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
