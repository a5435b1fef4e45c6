import type { Request } from 'express';

/** The token of an `Authorization: Bearer …` header; the strings a client sends for "no token" count as none. */
export function bearerToken(req: Request): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  const token = match?.[1];
  return token && token !== 'null' && token !== 'undefined' ? token : undefined;
}
