/*
 * TICKET BOX on the event page (app/routes/event-detail.tsx plugs it into the events feature's layout):
 * quantity + Get Ticket / 'Already Registered'. Free events register here; paid events go through
 * `onBuy` when given, else the lazily loaded TicketPurchase (./ticket-purchase.tsx). A paid event with
 * several ticket types lists them with a quantity each (TypePicker), and a promo code can be applied.
 */
import { MAX_TICKETS_PER_ORDER } from '@tukio/shared/limits';
import { Suspense, useId, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { QuantityField } from '../../../components/ui/quantity-field';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/errors';
import { nowAsWallClock } from '../../../lib/event-clock';
import { formatPrice, formatSeriesDate } from '../../../lib/format';
import type { EventItem } from '../../../types/api';
import { registerForEvent } from '../api/tickets-api';
import { useTicketOrder } from '../hooks/use-ticket-order';
import type { TicketOrder } from '../lib/ticket-order';
import { useHeldDates } from '../hooks/use-held-dates';
import { datesOnSale, datesStillOpen } from '../lib/series-dates';
import { CheckInLink } from './check-in-link';
import { OrderSummary } from './order-summary';
import { PromoCodeField } from './promo-code-field';
import { TypePicker } from './type-picker';
import { lazyWithTexts, RichText, useT } from '../../../lib/i18n';

/** Catalog keys of the box's notes. */
export const PAST_EVENT_MESSAGE = 'tickets.pastEvent';
export const CANCELLED_EVENT_MESSAGE = 'tickets.cancelledEvent';

export interface TicketBoxProps {
  event: EventItem;
  /** The signed-in user's id (token and stored user present), else null. */
  userId: string | null;
  /** The user holds a ticket (their id is in registeredUsers). */
  isRegistered: boolean;
  /** The event's start time has passed (Kenyan wall clock). */
  hasTakenPlace: boolean;
  /** Changes the page's copy of the event, e.g. after registering or buying. */
  onEventChange: (update: (event: EventItem) => EventItem) => void;
  /**
   * Seats this person can buy now, when known (the waitlist's answer for a signed-in person): it overrides
   * event.seatsLeft, which counts neither seats held for others on the waitlist nor a seat offered to them.
   */
  seatsAvailable?: number | null;
  /** Shown under the Get Ticket button (the waitlist feature's part, plugged in by the route). */
  waitlist?: ReactNode;
  /**
   * In the ticket widget's frame on another website (/embed/events/:id): guest checkout only (no log-in
   * offers, nothing that navigates the frame away), and the bought tickets' link opens in a new tab.
   */
  embedded?: boolean;
}

/** What ./ticket-purchase.tsx receives. */
export interface TicketPurchaseProps extends TicketBoxProps {
  /** What is chosen: tickets in all (1..MAX_TICKETS_PER_ORDER), seats per type, promo code. */
  order: TicketOrder;
  /** True while buying is impossible (sold out, nothing chosen, price being worked out); render the Get Ticket button disabled. */
  disabled: boolean;
  /** The label of the disabled button (default: sold out). */
  disabledLabel?: string;
  /** Call after payment is confirmed and the registration call succeeded. */
  onPurchased: () => void;
}

// Paid checkout (payment dialog, M-Pesa polling) downloads only when a paid event's box offers to buy (signed in, or as a guest).
const TicketPurchase = lazyWithTexts(() => import('./ticket-purchase'));

/** The registered state after a successful registration or purchase. */
export function markRegistered(event: EventItem, userId: string, tickets: number): EventItem {
  if (event.registeredUsers.includes(userId)) return event;
  return {
    ...event,
    registeredUsers: [...event.registeredUsers, userId],
    seatsLeft: typeof event.seatsLeft === 'number' ? Math.max(0, event.seatsLeft - tickets) : event.seatsLeft,
  };
}

export function TicketBox(props: TicketBoxProps & { onBuy?: (order: TicketOrder) => void }) {
  const t = useT();
  const { event, userId, isRegistered, hasTakenPlace, onEventChange, onBuy } = props;
  const navigate = useNavigate();
  const location = useLocation();
  const quantityId = useId();
  const [pending, setPending] = useState(false);
  // A ticket holder may buy more of a paid event: 'Already Registered' stays, t('tickets.buyMore') opens the purchase.
  const [buyingMore, setBuyingMore] = useState(false);

  const price = formatPrice(event.isPaid, event.ticketPrice, event.ticketPriceMax);
  const paid = event.isPaid && Boolean(event.ticketPrice);
  // An event series (docs/decisions/event-series.md): the buyer picks one of its dates on sale, the next by default.
  const series = Boolean(event.dates?.length);
  const [onSale] = useState(() => datesOnSale(event, nowAsWallClock().getTime()));
  // A free series registers once per person and date: registered for some dates, they may still take the others.
  const freeSeries = series && !paid && Boolean(userId) && event.status !== 'cancelled';
  const { held, loading: heldLoading, markHeld } = useHeldDates(event._id, userId, freeSeries && isRegistered);
  const pickable = freeSeries && isRegistered ? datesStillOpen(onSale, held) : onSale;
  const moreDates = freeSeries && isRegistered && !heldLoading && pickable.length > 0;
  const [pickedDate, setPickedDate] = useState(() => onSale[0]?._id ?? '');
  const date = pickable.find((candidate) => candidate._id === pickedDate) ?? pickable[0];
  // A series' seats are per date: the event-wide count says nothing about the picked one.
  const known = series ? null : props.seatsAvailable !== undefined ? props.seatsAvailable : event.seatsLeft;
  const seatsLeft = typeof known === 'number' ? known : null;
  const soldOut = seatsLeft === 0;
  const cancelled = event.status === 'cancelled';
  // Nothing to buy or register for: cancelled, or already over.
  const closed = cancelled || hasTakenPlace;
  const maxQuantity = Math.max(1, Math.min(MAX_TICKETS_PER_ORDER, seatsLeft ?? MAX_TICKETS_PER_ORDER));
  const ordering = useTicketOrder(event, { userId, enabled: paid && !closed, dateId: date?._id });
  const order: TicketOrder = date ? { ...ordering.order, date: { _id: date._id, startsAt: date.startsAt } } : ordering.order;
  // Nothing chosen yet, or the price of an applied code still being asked.
  const notReady = !soldOut && (ordering.typesLoading || !ordering.ready);

  const goToLogin = () => void navigate(paths.login, { state: { from: location.pathname } });

  const registerFree = async () => {
    if (!userId) return goToLogin();
    if (hasTakenPlace) return void notify.error(t(PAST_EVENT_MESSAGE));
    setPending(true);
    try {
      const message = await registerForEvent(event._id, userId, 1, date?._id);
      notify.success(message);
      if (date) markHeld(date._id);
      onEventChange((current) => markRegistered(current, userId, 1));
    } catch (error) {
      notify.error(getErrorMessage(error, t('tickets.registrationFailed')));
    } finally {
      setPending(false);
    }
  };

  // Signed out, the same purchase runs as a guest (by phone, no account).
  const purchase = (
    <Suspense fallback={<Button block loading loadingText={t('tickets.loading')} />}>
      <TicketPurchase
        {...props}
        order={order}
        disabled={soldOut || notReady}
        disabledLabel={soldOut ? t('tickets.soldOut') : userId ? t('tickets.getTicket') : t('tickets.buyAsGuest')}
        onPurchased={() => {
          setBuyingMore(false);
          ordering.reloadTypes();
          if (userId) onEventChange((current) => markRegistered(current, userId, order.quantity));
        }}
      />
    </Suspense>
  );
  const canBuyMore = isRegistered && paid && !closed && Boolean(userId) && !onBuy;

  // The series date picker: the same for a purchase and a free registration.
  const datePicker = series && pickable.length > 1 ? (
    <label className="field ticket-box__date">
      <span className="field__label">{t('tickets.pickDate')}</span>
      <select className="field__control" value={date?._id ?? ''} onChange={(change) => setPickedDate(change.target.value)} data-testid="series-date">
        {pickable.map((candidate) => (
          <option key={candidate._id} value={candidate._id}>
            {formatSeriesDate(candidate.startsAt)}
          </option>
        ))}
      </select>
    </label>
  ) : date ? (
    <p className="ticket-box__note">{t('tickets.forDate', { date: formatSeriesDate(date.startsAt) })}</p>
  ) : null;

  // On a free series: the dates this person holds, by date (all dates for a pass).
  const heldDates = freeSeries && isRegistered && !heldLoading ? (
    <div className="ticket-box__note" data-testid="held-dates">
      <p>{held.pass ? t('tickets.yourDatesAll') : t('tickets.yourDates')}</p>
      {held.pass ? null : (
        <ul>
          {(event.dates ?? [])
            .filter((candidate) => held.dateIds.includes(candidate._id))
            .map((candidate) => (
              <li key={candidate._id}>{formatSeriesDate(candidate.startsAt)}</li>
            ))}
        </ul>
      )}
    </div>
  ) : null;

  let action;
  if (cancelled) {
    // The note says sales are closed; a disabled button would only look like something to press.
    action = null;
  } else if (moreDates) {
    action = (
      <>
        {heldDates}
        <p className="ticket-box__note">{t('tickets.registerAnotherDate')}</p>
        {datePicker}
        <Button block loading={pending} loadingText={t('tickets.registering')} onClick={() => void registerFree()}>
          {t('tickets.getTicket')}
        </Button>
      </>
    );
  } else if (isRegistered) {
    action = (
      <>
        {heldDates}
        <Button block disabled>
          {t('tickets.alreadyRegistered')}
        </Button>
        {canBuyMore ? (
          buyingMore ? (
            purchase
          ) : (
            <Button block variant="secondary" disabled={soldOut} onClick={() => setBuyingMore(true)}>
              {soldOut ? t('tickets.soldOut') : t('tickets.buyMore')}
            </Button>
          )
        ) : null}
      </>
    );
  } else if (hasTakenPlace) {
    action = (
      <Button block disabled>
        {t('tickets.getTicket')}
      </Button>
    );
  } else if (!paid) {
    action = (
      <>
        {datePicker}
        <Button block loading={pending} loadingText={t('tickets.registering')} disabled={soldOut} onClick={() => void registerFree()}>
          {soldOut ? t('tickets.soldOut') : t('tickets.getTicket')}
        </Button>
      </>
    );
  } else if (!userId) {
    // Two ways to buy, each its own button: as a guest by M-Pesa (the main one), or after logging in.
    action = soldOut ? (
      <Button block disabled>
        {t('tickets.soldOut')}
      </Button>
    ) : (
      <>
        {onBuy ? null : purchase}
        {props.embedded ? null : (
          <Button block variant={onBuy ? 'primary' : 'secondary'} onClick={goToLogin}>
            {t('tickets.logInToBuy')}
          </Button>
        )}
      </>
    );
  } else if (onBuy) {
    action = (
      <Button block disabled={soldOut || notReady} onClick={() => onBuy(order)}>
        {soldOut ? t('tickets.soldOut') : t('tickets.getTicket')}
      </Button>
    );
  } else {
    action = purchase;
  }

  return (
    <section className="ticket-box" aria-labelledby={`${quantityId}-title`}>
      <h2 className="ticket-box__title" id={`${quantityId}-title`}>
        {t('tickets.tickets')}
      </h2>
      <p className="ticket-box__price">{price}</p>
      {seatsLeft !== null && !closed ? (
        <p className="ticket-box__seats">{soldOut ? t('tickets.soldOut') : t('tickets.seatsLeft', { count: seatsLeft })}</p>
      ) : null}
      {cancelled ? (
        <p className="ticket-box__note ticket-box__note--closed" role="note">
          {t(CANCELLED_EVENT_MESSAGE)}
        </p>
      ) : hasTakenPlace ? (
        <p className="ticket-box__note ticket-box__note--past" role="note">
          {t(PAST_EVENT_MESSAGE)}
        </p>
      ) : null}
      {cancelled && isRegistered ? (
        paid ? (
          <p className="ticket-box__note">
            <RichText id="tickets.voidRefundOnWay" parts={{ profile: <Link to={paths.profile}>{t('tickets.yourProfile')}</Link> }} />
          </p>
        ) : (
          <p className="ticket-box__note">{t('tickets.registrationVoid')}</p>
        )
      ) : null}
      {paid && (!isRegistered || buyingMore) && !closed ? (
        <>
          {datePicker}
          {ordering.typesLoading && (event.ticketPriceMax ?? 0) > event.ticketPrice ? (
            // Prices differ, so there are several types: no single quantity box that would then be replaced.
            <p className="ticket-box__note" role="status">
              {t('tickets.loadingTypes')}
            </p>
          ) : ordering.multi ? (
            <TypePicker types={ordering.types} selection={ordering.selection} onChange={ordering.setTypeQuantity} disabled={soldOut} />
          ) : (
            <QuantityField label={t('tickets.numberOfTickets')} className="ticket-box__quantity" value={ordering.quantity} max={maxQuantity} disabled={soldOut} onChange={ordering.setQuantity} />
          )}
          {soldOut ? null : <PromoCodeField {...ordering} />}
          {ordering.orderError ? (
            <p className="ticket-box__error" role="alert">
              {ordering.orderError}
            </p>
          ) : null}
          {ordering.multi || ordering.appliedCode || (order.feeOnTop ?? 0) > 0 ? <OrderSummary order={order} quote={ordering.quote} /> : null}
        </>
      ) : null}
      {action}
      {props.waitlist}
      {!userId && !closed && !isRegistered && !paid && !props.embedded ? (
        <p className="ticket-box__note">
          <RichText id="tickets.logInToGet" parts={{ login: <Link to={paths.login} state={{ from: location.pathname }}>{t('tickets.logIn')}</Link> }} />
        </p>
      ) : null}
      {/* Void tickets admit nobody: no door to run. */}
      {cancelled ? null : <CheckInLink eventId={event._id} ownerId={event.user} userId={userId} />}
    </section>
  );
}
