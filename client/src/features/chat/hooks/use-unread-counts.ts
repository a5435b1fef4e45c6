import { useCallback, useEffect, useRef, useState } from 'react';
import { notify } from '../../../lib/notify';
import { getErrorMessage } from '../../../lib/errors';
import { t } from '../../../lib/i18n';
import { getUnreadCounts, markConversationRead } from '../api/chat-api';
import type { ChatClient } from '../lib/chat-client';
import type { UnreadCounts } from '../types';

/**
 * Unread message counts per contact. Loaded on mount and after a reconnect, raised by incoming
 * messages for conversations that are not open, and cleared (locally and on the server) for the
 * open conversation.
 */
export function useUnreadCounts(options: {
  userId: string;
  client: ChatClient | null;
  openContactId: string | null;
  /** Called for a message from someone who is not in the contact list yet. */
  onUnknownSender?: (senderId: string) => void;
  isKnown: (contactId: string) => boolean;
}) {
  const { userId, client, openContactId, onUnknownSender, isKnown } = options;
  const [counts, setCounts] = useState<UnreadCounts>({});
  // When each conversation was last marked read here, so an older unread answer cannot resurrect a badge.
  const readAt = useRef(new Map<string, number>());

  const markRead = useCallback((contactId: string) => {
    readAt.current.set(contactId, Date.now());
    setCounts((current) => {
      if (!current[contactId]) return current;
      const next = { ...current };
      delete next[contactId];
      return next;
    });
    markConversationRead(contactId).catch((error: unknown) => {
      notify.error(getErrorMessage(error, t('chat.markReadFailed')), { toastId: 'chat-read-failed' });
    });
  }, []);

  const load = useCallback((signal?: AbortSignal) => {
    const startedAt = Date.now();
    getUnreadCounts(signal).then(
      (loaded) => {
        if (signal?.aborted) return;
        const next: UnreadCounts = {};
        for (const [contactId, count] of Object.entries(loaded)) {
          const lastRead = readAt.current.get(contactId);
          if (typeof count === 'number' && count > 0 && !(lastRead && lastRead >= startedAt)) next[contactId] = count;
        }
        setCounts(next);
      },
      (error: unknown) => {
        if (signal?.aborted) return;
        notify.error(getErrorMessage(error, t('chat.unreadLoadFailed')), { toastId: 'chat-unread-failed' });
      },
    );
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load, userId]);

  // Opening a conversation reads it.
  useEffect(() => {
    if (openContactId) markRead(openContactId);
  }, [openContactId, markRead]);

  useEffect(() => {
    if (!client) return;
    const offMessage = client.on('message', (message) => {
      if (message.to !== userId || message.from === userId) return;
      const sender = message.from;
      if (sender === openContactId) {
        markRead(sender);
        return;
      }
      setCounts((current) => ({ ...current, [sender]: (current[sender] ?? 0) + 1 }));
      if (!isKnown(sender)) onUnknownSender?.(sender);
    });
    const offResync = client.on('resync', () => {
      load();
      if (openContactId) markRead(openContactId);
    });
    return () => {
      offMessage();
      offResync();
    };
  }, [client, userId, openContactId, markRead, load, isKnown, onUnknownSender]);

  return counts;
}
