import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: one-to-one chat is built by later work.
export default function ChatRoute() {
  return <PlaceholderPage title="Chat" />;
}
