import { useT } from '../../../lib/i18n';
import { ChatBubblesIcon } from './icons';

export function WelcomePanel({ username }: { username: string }) {
  const t = useT();
  return (
    <section className="chat-welcome" aria-labelledby="chat-welcome-title">
      <span className="chat-welcome__art">
        <ChatBubblesIcon />
      </span>
      <h2 id="chat-welcome-title" className="chat-welcome__title">
        {t('chat.welcome')} <span className="chat-welcome__name">{username}!</span>
      </h2>
      <p className="chat-welcome__text">{t('chat.selectChat')}</p>
    </section>
  );
}
