/* Chat feature: the /chat screen (docs/decisions/chat.md). Stylesheet: ./chat.css. */
export { ChatScreen } from './components/chat-screen';
