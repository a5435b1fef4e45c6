import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { useT } from '../lib/i18n';

/** "Privacy notice": where personal data is asked for (sign-up, the M-Pesa payment) and in the footer. */
export function PrivacyLink({ className, newTab = false }: { className?: string; newTab?: boolean }) {
  const t = useT();
  // In a dialog (the payment), a new tab keeps the purchase the buyer is in the middle of.
  return (
    <Link className={className} to={paths.privacy} {...(newTab ? { target: '_blank', rel: 'noopener' } : {})}>
      {t('privacy.link')}
    </Link>
  );
}
