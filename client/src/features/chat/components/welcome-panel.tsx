import { ChatBubblesIcon } from './icons';

export function WelcomePanel({ username }: { username: string }) {
  return (
    <section className="chat-welcome" aria-labelledby="chat-welcome-title">
      <span className="chat-welcome__art">
        <ChatBubblesIcon />
      </span>
      <h2 id="chat-welcome-title" className="chat-welcome__title">
        Welcome, <span className="chat-welcome__name">{username}!</span>
      </h2>
      <p className="chat-welcome__text">Please select a chat to Start Messaging</p>
    </section>
  );
}
