import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { notify } from '../../lib/notify';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { t as translate, useT } from '../../lib/i18n';
import { useSession } from '../../hooks/use-session';
import { CancelEventButton } from '../../features/events';
import { BlockedUsers, getUser, MyEvents, MyReports, ProfileCard, YourData } from '../../features/profile';
import { MyReservations, MyTickets, TransactionsOverlay } from '../../features/tickets';
import { MyTeams } from '../../features/teams';
import '../../features/profile/profile.css';
import { readEndedSession } from '../../lib/session-auth';

export default function ProfileRoute() {
  const t = useT();
  useDocumentTitle(t('profile.pageTitle'));
  const navigate = useNavigate();
  const { user, isLoggedIn, isAvatarImageSet } = useSession();
  // Only a visitor who arrives without a session sees "User not found"; a session that ends
  // while on the page (logout, expiry) just leads to the login page.
  const [arrivedWithoutUser] = useState(() => !isLoggedIn);
  // A reservation paid off becomes tickets: My Tickets loads again.
  const [ticketsVersion, setTicketsVersion] = useState(0);
  const userId = isLoggedIn && user ? user._id : null;

  const queryClient = useQueryClient();
  const profile = useQuery({ queryKey: ['user', userId], queryFn: ({ signal }) => getUser(userId ?? '', signal), enabled: Boolean(userId && isAvatarImageSet) });

  useEffect(() => {
    if (!userId && arrivedWithoutUser) {
      // A session a suspension or ban just ended already said why (and the login page goes on saying it).
      if (!readEndedSession()) notify.error(translate('profile.userNotFound'), { toastId: 'user-not-found' });
      void navigate(paths.login, { replace: true });
    }
  }, [userId, arrivedWithoutUser, navigate]);

  if (!userId || !user) {
    return arrivedWithoutUser ? <PageLoader label={t('profile.redirectingToLogin')} /> : <Navigate to={paths.login} replace />;
  }
  if (!isAvatarImageSet) return <Navigate to={paths.setAvatar} replace />;

  return (
    <div className="page profile">
      <h1>{t('profile.pageTitle')}</h1>
      <ProfileCard
        userId={userId}
        user={profile.data ?? null}
        fallbackUsername={user.username}
        fallbackAvatar={user.avatarImage}
        loading={profile.isLoading}
        loadError={Boolean(profile.error)}
        onUpdated={(updated) => queryClient.setQueryData<typeof profile.data>(['user', userId], (current) => ({ ...current, ...updated }))}
        actions={
          <>
            <TransactionsOverlay userId={userId} />
            <Link className="btn btn--ghost" to={paths.chat}>
              {t('profile.messages')}
            </Link>
          </>
        }
      />
      <MyTeams />
      <MyReservations userId={userId} onPaidOff={() => setTicketsVersion((version) => version + 1)} />
      <MyTickets key={ticketsVersion} userId={userId} />
      <MyEvents
        userId={userId}
        eventActions={(event, onChange) => (
          <>
            {/* The organiser's figures: sales, revenue, check-ins (app/routes/event-dashboard.tsx). */}
            <Link className="btn btn--secondary btn--sm" to={paths.eventDashboard(event._id)} aria-label={t('profile.dashboardFor', { title: event.title })}>
              {t('profile.dashboard')}
            </Link>
            {/* A paged list's event has no attendee ids; the dialog reads only its id, title and price. */}
            <CancelEventButton small event={{ ...event, registeredUsers: [] }} onCancelled={onChange} />
          </>
        )}
      />
      <BlockedUsers userId={userId} />
      <MyReports userId={userId} />
      <YourData userId={userId} />
    </div>
  );
}
