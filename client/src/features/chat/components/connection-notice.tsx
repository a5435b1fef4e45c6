import type { ConnectionState } from '../lib/chat-client';

/** Says so when live updates are not flowing; messages are then sent over plain HTTP. */
export function ConnectionNotice({ state, onReconnect }: { state: ConnectionState; onReconnect: () => void }) {
  return (
    <div className="chat-connection" role="status">
      {state === 'offline' ? (
        <p className="chat-connection__text">Connection lost. Reconnecting…</p>
      ) : state === 'stopped' ? (
        <p className="chat-connection__text">
          Live updates are off, so new messages will not show up by themselves.{' '}
          <button type="button" className="chat-connection__retry" onClick={onReconnect}>
            Reconnect
          </button>
        </p>
      ) : null}
    </div>
  );
}
