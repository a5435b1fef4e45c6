import { useEffect, useState } from 'react';
import { ChatClient, type ConnectionState } from '../lib/chat-client';

/** One realtime connection for as long as the chat screen is mounted (and the session lasts). */
export function useChatClient(token: string | null, userId: string | null) {
  const [client, setClient] = useState<ChatClient | null>(null);
  const [state, setState] = useState<ConnectionState>('connecting');

  useEffect(() => {
    if (!token || !userId) return;
    const next = new ChatClient(token, userId);
    setClient(next);
    setState(next.state);
    const off = next.on('state', setState);
    return () => {
      off();
      next.close();
      setClient(null);
    };
  }, [token, userId]);

  return { client, state };
}
