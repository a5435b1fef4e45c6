import { useT } from '../../../lib/i18n';
import { ProfileCard } from './profile-card';

/**
 * The top of /profile as the page the server sends carries it (src/prerender.tsx, in a <template>): the
 * real card's markup with nobody in it. Before the app has loaded, the route preloader fills in the stored
 * session's avatar and name and shows it (src/app/route-shell.ts); React then renders the same card over it.
 */
export function ProfilePageShell() {
  const t = useT();
  return (
    <div className="page profile">
      <h1>{t('profile.pageTitle')}</h1>
      <ProfileCard userId="" user={null} fallbackUsername="" fallbackAvatar={undefined} loading={false} loadError={false} onUpdated={() => undefined} />
    </div>
  );
}
