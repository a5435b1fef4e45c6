/**
 * Every client route. Use the constants / builders below instead of string literals.
 * `routePatterns` holds the React Router patterns for the parameterised routes.
 */
const seg = (value: string) => encodeURIComponent(value);

export const paths = {
  home: '/',
  events: '/events',
  event: (id: string) => `/events/${seg(id)}`,
  eventDashboard: (id: string) => `/events/${seg(id)}/dashboard`,
  plan: '/plan',
  /** An organiser's payouts: where to be paid. */
  payouts: '/payouts',
  /** An organiser's payouts read by a finance member for all of their events (read-only). */
  organiserPayouts: (organiserId: string) => `/payouts/organisers/${seg(organiserId)}`,
  login: '/login',
  register: '/register',
  setAvatar: '/setAvatar',
  profile: '/profile',
  chat: '/chat',
  contact: '/contact',
  about: '/about',
  /** The privacy notice (what is kept, why, how long, who receives it). */
  privacy: '/privacy',
  forgotPassword: '/forgot-password',
  resetPassword: (token: string) => `/reset-password/${seg(token)}`,
  verifyEmail: (token: string) => `/verify/${seg(token)}`,
  forums: (eventId: string) => `/forums/${seg(eventId)}`,
  forumThread: (threadId: string) => `/forum/${seg(threadId)}`,
  editEvent: (id: string) => `/edit-event/${seg(id)}`,
  admin: '/admin',
  adminScraped: '/admpst',
  checkin: (eventId: string) => `/checkin/${seg(eventId)}`,
  /** A guest order's tickets: the link its SMS carries (the token is its capability). */
  guestTickets: (token: string) => `/t/${seg(token)}`,
  /** A "Download my data" link from its email (the download needs the account that asked). */
  dataExport: (token: string) => `/my-data/${seg(token)}`,
  /** The "Delete my account" confirmation and undo links from their emails. */
  deleteAccount: (token: string) => `/delete-account/${seg(token)}`,
  deleteAccountUndo: (token: string) => `/delete-account/undo/${seg(token)}`,
  /** The ticket widget's page, framed on organisers' websites by /widget.js (docs/decisions/widget.md). */
  embedEvent: (id: string) => `/embed/events/${seg(id)}`,
} as const;

export const routePatterns = {
  event: '/events/:id',
  eventDashboard: '/events/:id/dashboard',
  organiserPayouts: '/payouts/organisers/:organiserId',
  resetPassword: '/reset-password/:token',
  verifyEmail: '/verify/:token',
  forums: '/forums/:eventId',
  forumThread: '/forum/:threadId',
  editEvent: '/edit-event/:id',
  checkin: '/checkin/:eventId',
  guestTickets: '/t/:token',
  dataExport: '/my-data/:token',
  deleteAccountUndo: '/delete-account/undo/:token',
  deleteAccount: '/delete-account/:token',
  embedEvent: '/embed/events/:id',
} as const;
