import { useT } from '../../../lib/i18n';
import type { ConnectionState } from '../lib/chat-client';

/** Says so when live updates are not flowing; messages are then sent over plain HTTP. */
export function ConnectionNotice({ state, onReconnect }: { state: ConnectionState; onReconnect: () => void }) {
  const t = useT();
  return (
    <div className="chat-connection" role="status">
      {state === 'offline' ? (
        <p className="chat-connection__text">{t('chat.connectionLost')}</p>
      ) : state === 'stopped' ? (
        <p className="chat-connection__text">
          {t('chat.liveUpdatesOff')}{' '}
          <button type="button" className="chat-connection__retry" onClick={onReconnect}>
            {t('chat.reconnect')}
          </button>
        </p>
      ) : null}
    </div>
  );
}
