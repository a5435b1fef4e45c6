/* GUEST TICKETS (/t/:token): the page a guest buyer's SMS links to; no account needed. */
import { useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { GuestTicketsPage } from '../../features/guest-tickets';
import { GuestAnswersEditor, TicketQr } from '../../features/tickets';

export default function GuestTicketsRoute() {
  const t = useT();
  useDocumentTitle(t('guest-tickets.pageTitle'));
  const { token = '' } = useParams();
  return <GuestTicketsPage key={token} token={token} TicketQr={TicketQr} Answers={GuestAnswersEditor} />;
}
