import { useCallback, useEffect, useLayoutEffect, useReducer, useRef } from 'react';
import { getErrorCode, getErrorMessage } from '../../../lib/errors';
import { t } from '../../../lib/i18n';
import { addMessage, getConversationPage } from '../api/chat-api';
import { SendError, type ChatClient } from '../lib/chat-client';
import { conversationReducer, initialConversationState } from '../lib/conversation-state';

/** Refusals that stand until someone lifts a block: trying again cannot help. */
const BLOCK_CODES = new Set(['chat_blocked_by_them', 'chat_blocked_by_you']);

let localKeySeq = 0;
const nextLocalKey = () => `local-${Date.now().toString(36)}-${(localKeySeq += 1)}`;

/**
 * One conversation between me and a contact: history (newest page first, older pages on demand),
 * live messages from the socket, and optimistic sending with a failed state and retry.
 * Mount it per contact (key the component by contact id) so switching starts fresh.
 */
export function useConversation(selfId: string, contactId: string, client: ChatClient | null) {
  const [state, dispatch] = useReducer(conversationReducer, initialConversationState);
  const [reloadCount, reload] = useReducer((n: number) => n + 1, 0);

  const stateRef = useRef(state);
  useLayoutEffect(() => {
    stateRef.current = state;
  });
  const clientRef = useRef(client);
  useLayoutEffect(() => {
    clientRef.current = client;
  });

  // Aborts requests still running when the conversation closes.
  const lifetime = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    lifetime.current = controller;
    return () => controller.abort();
  }, []);

  // The newest page.
  useEffect(() => {
    const controller = new AbortController();
    if (reloadCount > 0) dispatch({ type: 'reload' });
    getConversationPage(contactId, null, controller.signal).then(
      (page) => dispatch({ type: 'loaded', page }),
      (error: unknown) => {
        if (!controller.signal.aborted) {
          dispatch({ type: 'load-failed', error: getErrorMessage(error, t('chat.conversationLoadFailed')) });
        }
      },
    );
    return () => controller.abort();
  }, [selfId, contactId, reloadCount]);

  // Live messages of this conversation only, and a catch-up after the connection comes back.
  useEffect(() => {
    if (!client) return;
    const offMessage = client.on('message', (message) => {
      const mine = message.from === selfId && message.to === contactId;
      const theirs = message.from === contactId && message.to === selfId;
      if (mine || theirs) dispatch({ type: 'received', message, selfId });
    });
    const offResync = client.on('resync', () => {
      getConversationPage(contactId, null, lifetime.current?.signal).then(
        (page) => dispatch({ type: 'synced', page }),
        () => undefined, // the history already shown stays; the next message or reload fills the gap
      );
    });
    return () => {
      offMessage();
      offResync();
    };
  }, [client, selfId, contactId]);

  const olderInFlight = useRef(false);
  const loadOlder = useCallback(() => {
    const current = stateRef.current;
    const cursor = current.nextCursor;
    if (olderInFlight.current || !cursor || current.status !== 'ready') return;
    olderInFlight.current = true;
    dispatch({ type: 'older-started' });
    const signal = lifetime.current?.signal;
    getConversationPage(contactId, cursor, signal)
      .then(
        (page) => dispatch({ type: 'older-loaded', page }),
        (error: unknown) => {
          if (!signal?.aborted) {
            dispatch({ type: 'older-failed', error: getErrorMessage(error, t('chat.earlierLoadFailed')) });
          }
        },
      )
      .finally(() => {
        olderInFlight.current = false;
      });
  }, [contactId]);

  const deliver = useCallback(
    (key: string, text: string) => {
      dispatch({ type: 'send-started', key, text, createdAt: new Date().toISOString() });
      const signal = lifetime.current?.signal;
      const sending = clientRef.current
        ? clientRef.current.send(contactId, text)
        : addMessage({ from: selfId, to: contactId, message: text });
      sending.then(
        (message) => dispatch({ type: 'send-confirmed', key, message }),
        (error: unknown) => {
          if (signal?.aborted) return;
          const reason = error instanceof SendError ? error.message : getErrorMessage(error, t('chat.messageNotSent'));
          const code = error instanceof SendError ? error.code : getErrorCode(error);
          dispatch({ type: 'send-failed', key, error: reason, final: code !== undefined && BLOCK_CODES.has(code) });
        },
      );
    },
    [selfId, contactId],
  );

  /** Sends non-empty text; returns false when there was nothing to send. */
  const send = useCallback(
    (text: string) => {
      if (text.trim() === '') return false;
      deliver(nextLocalKey(), text);
      return true;
    },
    [deliver],
  );

  const retry = useCallback(
    (key: string) => {
      const message = stateRef.current.messages.find((m) => m.key === key && m.status === 'failed');
      if (message) deliver(key, message.text);
    },
    [deliver],
  );

  const discard = useCallback((key: string) => dispatch({ type: 'discard', key }), []);

  return { state, loadOlder, send, retry, discard, reload };
}
