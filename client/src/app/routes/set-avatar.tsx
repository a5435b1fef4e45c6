import { Navigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useSession } from '../../hooks/use-session';
import { AvatarPicker } from '../../features/avatar';
import '../../features/avatar/avatar.css';

export default function SetAvatarRoute() {
  useDocumentTitle('Choose your avatar');
  const { isLoggedIn, user } = useSession();
  if (!isLoggedIn || !user) return <Navigate to={paths.login} replace />;

  return (
    <section className="page page--narrow set-avatar">
      <h1>Pick an avatar as your profile picture</h1>
      <p className="lead">
        These avatars are generated just for you. Don&apos;t like them? Generate a new set.
      </p>
      <AvatarPicker userId={user._id} />
    </section>
  );
}
