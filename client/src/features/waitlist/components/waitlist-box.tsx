/*
 * The waitlist part of the event page's ticket box (the route plugs it under Get Ticket): for a person the
 * event is sold out to, the form to join; then their place ("You are #2…") with a way to leave; a seat held
 * for them (Get Ticket above is enabled for it: the route gives the ticket box their seatsAvailable); an offer
 * that ran out. Visitors are asked to log in. Nothing once they hold tickets or can buy normally.
 */
import { MAX_TICKETS_PER_ORDER } from '@tukio/shared/limits';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { QuantityField } from '../../../components/ui/quantity-field';
import { paths } from '../../../config/paths';
import { getErrorMessage, getErrorStatus, getServerMessage } from '../../../lib/errors';
import { RichText, t as translate, useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { joinWaitlist, leaveWaitlist, type WaitlistEntry, type WaitlistPlace } from '../api/waitlist-api';
import { formatNairobiTime } from '../lib/waitlist-text';
import type { WaitlistPlaceState } from '../hooks/use-waitlist-place';
import '../waitlist.css';

export interface WaitlistBoxProps {
  eventId: string;
  /** A signed-in person (else: the log-in prompt when sold out). */
  signedIn: boolean;
  /** The event's own count says sold out: what visitors go by, and everyone until their place is read. */
  soldOut: boolean;
  /** They hold tickets: nothing to wait for unless a place is still open. */
  isRegistered: boolean;
  /** Paid (M-Pesa) or free (registration): how an offer is taken. */
  isPaid: boolean;
  /** The person's place (features/waitlist useWaitlistPlace), shared with the ticket box's seatsAvailable. */
  place: WaitlistPlaceState;
}

export function WaitlistBox({ eventId, signedIn, soldOut, isRegistered, isPaid, place }: WaitlistBoxProps) {
  const t = useT();
  const location = useLocation();
  const { data, error, reload, setPlace: update } = place;
  const status = data?.entry?.status;

  // Someone watching the page while waiting is told when the seat comes (the 30 s re-check found it).
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current === 'waiting' && status === 'offered') notify.success(translate('waitlist.offerArrived'), { toastId: 'waitlist-offer' });
    previous.current = status;
  }, [status]);

  if (!signedIn) {
    if (!soldOut) return null;
    return (
      <div className="waitlist">
        <p className="waitlist__lead">{t('waitlist.soldOutJoin')}</p>
        <p className="waitlist__text">
          <RichText
            id="waitlist.loginToJoinNotice"
            parts={{
              link: (
                <Link to={paths.login} state={{ from: location.pathname }}>
                  {t('waitlist.loginToJoin')}
                </Link>
              ),
            }}
          />
        </p>
      </div>
    );
  }

  if (!data) {
    // Until the place is read, only a sold-out event needs the waitlist's word.
    if (!soldOut) return null;
    if (error) {
      return (
        <div className="waitlist">
          <p className="form-message form-message--error" role="alert">
            {getServerMessage(error) ?? t('waitlist.checkFailed')}
          </p>
          <Button variant="secondary" className="btn--sm" onClick={reload}>
            {t('waitlist.tryAgain')}
          </Button>
        </div>
      );
    }
    return (
      <p className="waitlist__text muted" role="status">
        {t('waitlist.checking')}
      </p>
    );
  }

  const entry = data.entry;
  if (entry && (entry.status === 'offered' || entry.status === 'waiting')) {
    return <OpenPlace eventId={eventId} entry={entry} isPaid={isPaid} onChange={update} onStale={reload} />;
  }
  if (isRegistered || data.seatsAvailable !== 0) return null;
  return (
    <JoinForm
      eventId={eventId}
      waiting={data.waiting}
      expiredAt={entry?.status === 'expired' ? entry.offerExpiresAt : null}
      onChange={update}
      onStale={reload}
    />
  );
}

function JoinForm(props: { eventId: string; waiting: number; expiredAt: string | null; onChange: (place: WaitlistPlace) => void; onStale: () => void }) {
  const { eventId, waiting, expiredAt, onChange, onStale } = props;
  const t = useT();
  const [quantity, setQuantity] = useState(1);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    try {
      const place = await joinWaitlist(eventId, quantity);
      onChange(place);
      notify.success(place.entry?.position ? t('waitlist.joinedAt', { position: place.entry.position }) : t('waitlist.joined'));
    } catch (error) {
      notify.error(getErrorMessage(error, t('waitlist.joinFailed')));
      // A 409 means the page is behind (seats came back, or a place already exists): read the place again.
      if (getErrorStatus(error) === 409) onStale();
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="waitlist" onSubmit={(event) => void submit(event)} noValidate>
      <p className="waitlist__lead">{t('waitlist.soldOutJoin')}</p>
      {expiredAt ? (
        <p className="waitlist__text waitlist__text--warning">{t('waitlist.offerExpired', { time: formatNairobiTime(expiredAt) })}</p>
      ) : null}
      <p className="waitlist__text">
        {waiting === 0 ? t('waitlist.nobodyWaiting') : t('waitlist.peopleWaiting', { count: waiting })} {t('waitlist.emailAndHold')}
      </p>
      <div className="waitlist__join">
        <QuantityField label={t('waitlist.ticketsWanted')} className="waitlist__quantity" value={quantity} max={MAX_TICKETS_PER_ORDER} onChange={setQuantity} />
        <Button type="submit" loading={pending} loadingText={t('waitlist.joining')}>
          {t('waitlist.join')}
        </Button>
      </div>
    </form>
  );
}

function OpenPlace(props: { eventId: string; entry: WaitlistEntry; isPaid: boolean; onChange: (place: WaitlistPlace) => void; onStale: () => void }) {
  const { eventId, entry, isPaid, onChange, onStale } = props;
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const offered = entry.status === 'offered';
  const seats = entry.offeredQuantity ?? entry.quantity;

  const leave = async () => {
    setBusy(true);
    setFailure(null);
    try {
      onChange(await leaveWaitlist(eventId));
      setConfirming(false);
      notify.success(t(offered ? 'waitlist.gaveUpSeat' : 'waitlist.left'));
    } catch (error) {
      // Not on the list any more (the offer ran out meanwhile): show what is true now.
      if (getErrorStatus(error) === 404) {
        setConfirming(false);
        notify.error(getErrorMessage(error, t('waitlist.noLongerOnList')));
        onStale();
      } else {
        setFailure(getErrorMessage(error, t('waitlist.leaveFailed')));
      }
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    if (busy) return;
    setConfirming(false);
    setFailure(null);
  };

  return (
    <div className={offered ? 'waitlist waitlist--offered' : 'waitlist'}>
      {offered ? (
        <>
          <p className="waitlist__lead">{t('waitlist.seatsHeld', { count: seats, time: formatNairobiTime(entry.offerExpiresAt) })}</p>
          <p className="waitlist__text">
            {isPaid ? t('waitlist.payBefore', { count: seats }) : t('waitlist.registerBefore')}
            {seats < entry.quantity ? ` ${t('waitlist.partialOffer', { asked: entry.quantity, seats })}` : null}
          </p>
        </>
      ) : (
        <p className="waitlist__text">
          <strong>{t('waitlist.position', { position: entry.position ?? '?', count: entry.quantity })}</strong>{' '}
          {t('waitlist.emailWhenSeat')}
        </p>
      )}
      <Button variant="secondary" className="btn--sm waitlist__leave" onClick={() => setConfirming(true)} aria-haspopup="dialog">
        {t(offered ? 'waitlist.giveUpSeat' : 'waitlist.leave')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t(offered ? 'waitlist.giveUpTitle' : 'waitlist.leaveTitle')}
        description={t(offered ? 'waitlist.giveUpDescription' : 'waitlist.leaveDescription')}
        confirmLabel={t(offered ? 'waitlist.giveUpSeat' : 'waitlist.leave')}
        busyLabel={t('waitlist.leaving')}
        dismissLabel={t(offered ? 'waitlist.keepSeat' : 'waitlist.stay')}
        busy={busy}
        error={failure}
        onConfirm={() => void leave()}
        onClose={close}
      />
    </div>
  );
}
