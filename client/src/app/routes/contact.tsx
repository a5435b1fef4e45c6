import { SocialLinks } from '../../components/social-links';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useT } from '../../lib/i18n';
import { ContactForm } from '../../features/contact';
import '../../features/contact/contact.css';

export default function ContactRoute() {
  const t = useT();
  useDocumentTitle(t('contact.pageTitle'));
  return (
    <div className="page contact">
      <header className="page-hero">
        <p className="eyebrow">{t('contact.eyebrow')}</p>
        <h1>{t('contact.title')}</h1>
        <p className="lead">
          {t('contact.lead')}
        </p>
      </header>
      <div className="contact__layout">
        <ContactForm />
        <aside className="contact__aside card" aria-labelledby="follow-heading">
          <h2 id="follow-heading">{t('contact.followTitle')}</h2>
          <p>{t('contact.followText')}</p>
          <SocialLinks label={t('contact.followLabel')} showNames className="contact__social" />
        </aside>
      </div>
    </div>
  );
}
