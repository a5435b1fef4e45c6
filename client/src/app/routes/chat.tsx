import { Navigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useSession } from '../../features/auth/hooks/use-session';
import { ChatScreen } from '../../features/chat/components/chat-screen';
import '../../features/chat/chat.css';

/** /chat: one-to-one chat. No stored user: /login. Avatar not set: /setAvatar (SPEC §2, §4). */
export default function ChatRoute() {
  useDocumentTitle('Chat');
  const { user, token, isLoggedIn, isAvatarImageSet } = useSession();
  if (!isLoggedIn || !user || !token) return <Navigate to={paths.login} replace />;
  if (!isAvatarImageSet) return <Navigate to={paths.setAvatar} replace />;
  return <ChatScreen user={user} token={token} />;
}
