/**
 * Anonymous GET of a public JSON resource with `fetch`, for the few reads a page needs on its
 * first paint (the home route's event lists). Using the axios instance there would add ~21 KB
 * gzip to the home route's first load; every other call (anything authenticated, any write)
 * goes through `api` in ./api-client. Failures throw an HttpError whose `response` has the same
 * `{status, data}` shape as an axios error, so ./errors reads the server's message from both.
 */
import { env } from '../config/env';

export class HttpError extends Error {
  readonly response: { status: number; data: unknown };

  constructor(status: number, data: unknown) {
    super(`Request failed with status code ${status}`);
    this.name = 'HttpError';
    this.response = { status, data };
  }
}

/** GET `/api${path}` without credentials; resolves with the parsed JSON body. */
export async function getPublicJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(`${env.apiBaseUrl}${path}`, {
    headers: { Accept: 'application/json' },
    signal,
  });
  const text = await response.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (e.g. a proxy error page): keep the text
  }
  if (!response.ok) throw new HttpError(response.status, data);
  return data as T;
}
