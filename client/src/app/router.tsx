import { Route, Routes } from 'react-router-dom';
import { paths, routePatterns } from '../config/paths';
import { RootLayout } from '../features/layout';
import { lazyWithTexts, type PreloadableComponent } from '../lib/i18n';
import { matchRoute } from './route-match';
// The landing page is part of the entry: its code downloads in parallel with React instead of
// after it (one round trip less before the largest paint on '/'; ~4 KB gzip on other routes).
import Home from './routes/home';

/*
 * One lazily loaded chunk per route (except Home), shown once its texts are here in the reader's
 * language (lazyWithTexts). Heavy libraries (leaflet, emoji picker, qrcode) must
 * only be imported from inside the route modules (or features) that need them, never from here or the
 * layout. A new route also goes into ./route-match.ts, so a deep link to it starts loading its chunk
 * before React has loaded (src/preload-route.ts).
 *
 * Declarative routes (<Routes>, no data router): the app uses no loaders, actions or fetchers, and
 * createBrowserRouter/RouterProvider would add ~17 KB gzip to every first load. Render errors are
 * caught by RouteErrorBoundary in the layout; scrolling on navigation by ScrollOnNavigate.
 */
const Events = lazyWithTexts(() => import('./routes/events'));
const EventDetail = lazyWithTexts(() => import('./routes/event-detail'));
const EventDashboard = lazyWithTexts(() => import('./routes/event-dashboard'));
const Plan = lazyWithTexts(() => import('./routes/plan'));
const Login = lazyWithTexts(() => import('./routes/login'));
const Register = lazyWithTexts(() => import('./routes/register'));
const SetAvatar = lazyWithTexts(() => import('./routes/set-avatar'));
const Profile = lazyWithTexts(() => import('./routes/profile'));
const Chat = lazyWithTexts(() => import('./routes/chat'));
const Contact = lazyWithTexts(() => import('./routes/contact'));
const About = lazyWithTexts(() => import('./routes/about'));
const ForgotPassword = lazyWithTexts(() => import('./routes/forgot-password'));
const ResetPassword = lazyWithTexts(() => import('./routes/reset-password'));
const VerifyEmail = lazyWithTexts(() => import('./routes/verify-email'));
const ForumThreads = lazyWithTexts(() => import('./routes/forum-threads'));
const ForumThread = lazyWithTexts(() => import('./routes/forum-thread'));
const EditEvent = lazyWithTexts(() => import('./routes/edit-event'));
const Admin = lazyWithTexts(() => import('./routes/admin'));
const AdminScraped = lazyWithTexts(() => import('./routes/admin-scraped'));
const CheckIn = lazyWithTexts(() => import('./routes/checkin'));
const GuestTickets = lazyWithTexts(() => import('./routes/guest-tickets'));
const NotFound = lazyWithTexts(() => import('./routes/not-found'));

/** Each lazily loaded route by its module's file name in ./routes (the names ./route-match.ts answers). */
const lazyRoutes: Record<string, PreloadableComponent<() => React.JSX.Element> | undefined> = {
  events: Events,
  'event-detail': EventDetail,
  'event-dashboard': EventDashboard,
  plan: Plan,
  login: Login,
  register: Register,
  'set-avatar': SetAvatar,
  profile: Profile,
  chat: Chat,
  contact: Contact,
  about: About,
  'forgot-password': ForgotPassword,
  'reset-password': ResetPassword,
  'verify-email': VerifyEmail,
  'forum-threads': ForumThreads,
  'forum-thread': ForumThread,
  'edit-event': EditEvent,
  admin: Admin,
  'admin-scraped': AdminScraped,
  checkin: CheckIn,
  'guest-tickets': GuestTickets,
  'not-found': NotFound,
};

/**
 * Loads the code of the page at `pathname` (src/main.tsx, before the first render): React then renders
 * that page at once, over the page the server sent, instead of a loading indicator first.
 */
export function preloadRoute(pathname: string): Promise<void> {
  const match = matchRoute(pathname);
  return lazyRoutes[match?.routeFile ?? '']?.preload() ?? Promise.resolve();
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<RootLayout />}>
        <Route index element={<Home />} />
        <Route path={paths.events} element={<Events />} />
        <Route path={routePatterns.event} element={<EventDetail />} />
        <Route path={routePatterns.eventDashboard} element={<EventDashboard />} />
        <Route path={paths.plan} element={<Plan />} />
        <Route path={paths.login} element={<Login />} />
        <Route path={paths.register} element={<Register />} />
        <Route path={paths.setAvatar} element={<SetAvatar />} />
        <Route path={paths.profile} element={<Profile />} />
        <Route path={paths.chat} element={<Chat />} />
        <Route path={paths.contact} element={<Contact />} />
        <Route path={paths.about} element={<About />} />
        <Route path={paths.forgotPassword} element={<ForgotPassword />} />
        <Route path={routePatterns.resetPassword} element={<ResetPassword />} />
        <Route path={routePatterns.verifyEmail} element={<VerifyEmail />} />
        <Route path={routePatterns.forums} element={<ForumThreads />} />
        <Route path={routePatterns.forumThread} element={<ForumThread />} />
        <Route path={routePatterns.editEvent} element={<EditEvent />} />
        <Route path={paths.admin} element={<Admin />} />
        <Route path={paths.adminScraped} element={<AdminScraped />} />
        <Route path={routePatterns.checkin} element={<CheckIn />} />
        <Route path={routePatterns.guestTickets} element={<GuestTickets />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
