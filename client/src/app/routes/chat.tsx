import { useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { useSession } from '../../hooks/use-session';
import { ChatScreen } from '../../features/chat';
import '../../features/chat/chat.css';

/** /chat: one-to-one chat. No stored user: /login. Avatar not set: /setAvatar (docs/product.md). */
export default function ChatRoute() {
  const t = useT();
  useDocumentTitle(t('pages.chatTitle'));
  const location = useLocation();
  const { user, token, isLoggedIn, isAvatarImageSet } = useSession();
  const [arrivedWithoutSession] = useState(() => !isLoggedIn);
  if (!isLoggedIn || !user || !token) {
    // A visitor sent to log in comes back here (open conversation included); after a logout, no.
    const state = arrivedWithoutSession ? { from: `${location.pathname}${location.search}` } : undefined;
    return <Navigate to={paths.login} replace state={state} />;
  }
  if (!isAvatarImageSet) return <Navigate to={paths.setAvatar} replace />;
  return <ChatScreen user={user} token={token} />;
}
