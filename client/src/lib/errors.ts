import { isAxiosError } from 'axios';

/** Message the server put in the error body (`msg` or `message`), if any. */
export function getServerMessage(error: unknown): string | null {
  if (!isAxiosError(error) || !error.response) return null;
  const data: unknown = error.response.data;
  if (typeof data === 'object' && data !== null) {
    const body = data as Record<string, unknown>;
    if (typeof body.msg === 'string' && body.msg.trim() !== '') return body.msg;
    if (typeof body.message === 'string' && body.message.trim() !== '') return body.message;
  }
  return null;
}

/** Server message when present, else the given fallback text. */
export function getErrorMessage(error: unknown, fallback: string): string {
  return getServerMessage(error) ?? fallback;
}
