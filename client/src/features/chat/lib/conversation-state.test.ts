import { describe, expect, it } from 'vitest';
import { conversationReducer, initialConversationState, type ConversationState } from './conversation-state';

const ready: ConversationState = { ...initialConversationState, status: 'ready' };
const sending = conversationReducer(ready, { type: 'send-started', key: 'local-1', text: 'Are you there?', createdAt: '2026-11-29T08:00:00.000Z' });

describe('conversation state: a failed send', () => {
  it('keeps the text with the reason, and whether trying again can help', () => {
    const blocked = conversationReducer(sending, { type: 'send-failed', key: 'local-1', error: 'You cannot message this user.', final: true });
    expect(blocked.messages).toEqual([expect.objectContaining({ key: 'local-1', text: 'Are you there?', status: 'failed', error: 'You cannot message this user.', final: true })]);

    const offline = conversationReducer(sending, { type: 'send-failed', key: 'local-1', error: 'Not confirmed', final: false });
    expect(offline.messages[0]).toMatchObject({ status: 'failed', final: false });
  });

  it('a retry of a message that failed for a passing reason starts sending it again', () => {
    const failed = conversationReducer(sending, { type: 'send-failed', key: 'local-1', error: 'Not confirmed', final: false });
    const again = conversationReducer(failed, { type: 'send-started', key: 'local-1', text: 'Are you there?', createdAt: '2026-11-29T08:01:00.000Z' });
    expect(again.messages).toEqual([expect.objectContaining({ key: 'local-1', status: 'sending' })]);
  });
});
