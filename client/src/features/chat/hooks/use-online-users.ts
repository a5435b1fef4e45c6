import { useEffect, useState } from 'react';
import type { ChatClient } from '../lib/chat-client';

const EMPTY: ReadonlySet<string> = new Set();

/** Ids of the users who are connected right now: the list sent after each connect, then presence events. */
export function useOnlineUsers(client: ChatClient | null): ReadonlySet<string> {
  const [online, setOnline] = useState<ReadonlySet<string>>(EMPTY);

  useEffect(() => {
    if (!client) return;
    const offList = client.on('online', (ids) => setOnline(new Set(ids)));
    const offPresence = client.on('presence', ({ userId, online: isOnline }) =>
      setOnline((current) => {
        if (current.has(userId) === isOnline) return current;
        const next = new Set(current);
        if (isOnline) next.add(userId);
        else next.delete(userId);
        return next;
      }),
    );
    return () => {
      offList();
      offPresence();
      setOnline(EMPTY);
    };
  }, [client]);

  return online;
}
