/*
 * EVENT DETAIL SLOTS. The event page (app/routes/event-detail.tsx → EventDetailView) renders these
 * exported sections in fixed places. Colleagues plug their features in HERE, without touching the page:
 *
 *   TicketBox            quantity + Get Ticket / 'Already Registered'. Free events register here.
 *                        Paid events: `onBuy` prop, else the `TicketPurchase` component exported by
 *                        src/features/tickets/components/ticket-purchase.tsx (picked up automatically
 *                        when that file exists; it receives TicketPurchaseProps), else a disabled button.
 *   CommentsSection      always shown (comments feature).
 *   AfterEventSections   shown once the event date has passed: forum summary (≤ 3 threads,
 *                        'View Available Forums' for registered users) and Reviews.
 *
 * Every slot receives the same EventSectionProps.
 */
import { lazy, Suspense, useId, useState, type ComponentType } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/errors';
import { formatPrice } from '../../../lib/format';
import { registerForEvent, type EventItem } from '../api/events-api';
import { CommentsSection as CommunityComments } from '../../community/components/comments-section';
import { ForumSummary } from '../../community/components/forum-summary';
import { ReviewsSection } from '../../community/components/reviews-section';
import { CheckInLink } from '../../tickets/components/check-in-link';

export const PAST_EVENT_MESSAGE = 'This event has already taken place.';
/** The server's per-order ceiling. */
export const MAX_TICKETS_PER_ORDER = 10;

export interface EventSectionProps {
  event: EventItem;
  /** The signed-in user's id (token and stored user present), else null. */
  userId: string | null;
  /** The user holds a ticket (their id is in registeredUsers). */
  isRegistered: boolean;
  /** The event's start time has passed (Kenyan wall clock). */
  hasTakenPlace: boolean;
  /** Changes the page's copy of the event, e.g. after registering or buying. */
  onEventChange: (update: (event: EventItem) => EventItem) => void;
}

/** What src/features/tickets/components/ticket-purchase.tsx must export as `TicketPurchase` (or default). */
export interface TicketPurchaseProps extends EventSectionProps {
  /** Tickets chosen in the quantity box (1..MAX_TICKETS_PER_ORDER, never above seatsLeft). */
  quantity: number;
  /** True while buying is impossible (sold out); render the Get Ticket button disabled. */
  disabled: boolean;
  /** Call after payment is confirmed and the registration call succeeded. */
  onPurchased: () => void;
}

type TicketPurchaseModule = { TicketPurchase?: ComponentType<TicketPurchaseProps>; default?: ComponentType<TicketPurchaseProps> };
const purchaseLoaders = import.meta.glob<TicketPurchaseModule>('../../tickets/components/ticket-purchase.tsx');
const loadPurchase = Object.values(purchaseLoaders)[0];
const TicketPurchase = loadPurchase
  ? lazy(async () => {
      const module = await loadPurchase();
      const component = module.TicketPurchase ?? module.default;
      if (!component) throw new Error('ticket-purchase.tsx exports no TicketPurchase component.');
      return { default: component };
    })
  : null;

/** The registered state after a successful registration or purchase. */
export function markRegistered(event: EventItem, userId: string, tickets: number): EventItem {
  if (event.registeredUsers.includes(userId)) return event;
  return {
    ...event,
    registeredUsers: [...event.registeredUsers, userId],
    seatsLeft: typeof event.seatsLeft === 'number' ? Math.max(0, event.seatsLeft - tickets) : event.seatsLeft,
  };
}

export function TicketBox(props: EventSectionProps & { onBuy?: (quantity: number) => void }) {
  const { event, userId, isRegistered, hasTakenPlace, onEventChange, onBuy } = props;
  const navigate = useNavigate();
  const location = useLocation();
  const quantityId = useId();
  const [quantity, setQuantity] = useState(1);
  const [pending, setPending] = useState(false);

  const price = formatPrice(event.isPaid, event.ticketPrice);
  const paid = price !== 'Free';
  const seatsLeft = typeof event.seatsLeft === 'number' ? event.seatsLeft : null;
  const soldOut = seatsLeft === 0;
  const maxQuantity = Math.max(1, Math.min(MAX_TICKETS_PER_ORDER, seatsLeft ?? MAX_TICKETS_PER_ORDER));

  const goToLogin = () => void navigate(paths.login, { state: { from: location.pathname } });

  const registerFree = async () => {
    if (!userId) return goToLogin();
    if (hasTakenPlace) return void notify.error(PAST_EVENT_MESSAGE);
    setPending(true);
    try {
      const message = await registerForEvent(event._id, userId, 1);
      notify.success(message);
      onEventChange((current) => markRegistered(current, userId, 1));
    } catch (error) {
      notify.error(getErrorMessage(error, 'Registration failed. Please try again.'));
    } finally {
      setPending(false);
    }
  };

  let action;
  if (isRegistered) {
    action = (
      <Button block disabled>
        Already Registered
      </Button>
    );
  } else if (hasTakenPlace) {
    action = (
      <Button block disabled>
        Get Ticket
      </Button>
    );
  } else if (!paid) {
    action = (
      <Button block loading={pending} loadingText="Registering…" disabled={soldOut} onClick={() => void registerFree()}>
        {soldOut ? 'Sold out' : 'Get Ticket'}
      </Button>
    );
  } else if (!userId) {
    action = (
      <Button block disabled={soldOut} onClick={goToLogin}>
        {soldOut ? 'Sold out' : 'Get Ticket'}
      </Button>
    );
  } else if (onBuy) {
    action = (
      <Button block disabled={soldOut} onClick={() => onBuy(quantity)}>
        {soldOut ? 'Sold out' : 'Get Ticket'}
      </Button>
    );
  } else if (TicketPurchase) {
    action = (
      <Suspense fallback={<Button block loading loadingText="Loading…" />}>
        <TicketPurchase
          {...props}
          quantity={quantity}
          disabled={soldOut}
          onPurchased={() => onEventChange((current) => markRegistered(current, userId, quantity))}
        />
      </Suspense>
    );
  } else {
    action = (
      <>
        <Button block disabled>
          Get Ticket (payments coming soon)
        </Button>
        <p className="ticket-box__note">Online payment for paid events is coming soon.</p>
      </>
    );
  }

  return (
    <section className="ticket-box" aria-labelledby={`${quantityId}-title`}>
      <h2 className="ticket-box__title" id={`${quantityId}-title`}>
        Tickets
      </h2>
      <p className="ticket-box__price">{price}</p>
      {seatsLeft !== null && !hasTakenPlace ? (
        <p className="ticket-box__seats">{soldOut ? 'Sold out' : `${seatsLeft} ${seatsLeft === 1 ? 'seat' : 'seats'} left`}</p>
      ) : null}
      {hasTakenPlace ? (
        <p className="ticket-box__note ticket-box__note--past" role="note">
          {PAST_EVENT_MESSAGE}
        </p>
      ) : null}
      {paid && !isRegistered && !hasTakenPlace ? (
        <div className="field ticket-box__quantity">
          <label className="field__label" htmlFor={quantityId}>
            Number of tickets
          </label>
          <input
            id={quantityId}
            className="field__control"
            type="number"
            inputMode="numeric"
            min={1}
            max={maxQuantity}
            step={1}
            value={quantity}
            disabled={soldOut}
            onChange={(change) => {
              const next = Math.floor(Number(change.target.value));
              setQuantity(Number.isFinite(next) ? Math.min(maxQuantity, Math.max(1, next)) : 1);
            }}
          />
        </div>
      ) : null}
      {action}
      {!userId && !hasTakenPlace && !isRegistered ? (
        <p className="ticket-box__note">
          <Link to={paths.login} state={{ from: location.pathname }}>
            Log in
          </Link>{' '}
          to get your ticket.
        </p>
      ) : null}
      <CheckInLink eventId={event._id} ownerId={event.user} userId={userId} />
    </section>
  );
}

/** COMMENTS SLOT (always shown): the community feature's list and form. */
export function CommentsSection({ event }: EventSectionProps) {
  return <CommunityComments eventId={event._id} />;
}

/**
 * AFTER-EVENT SLOT (only once the event has taken place): the forum summary (at most 3 threads,
 * 'View Available Forums' for registered users) and Reviews, from the community feature.
 */
export function AfterEventSections({ event, isRegistered }: EventSectionProps) {
  return (
    <>
      <ForumSummary eventId={event._id} isRegistered={isRegistered} />
      <ReviewsSection eventId={event._id} />
    </>
  );
}
