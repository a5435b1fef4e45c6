import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { SocialLinks } from '../../../components/social-links';
import { useT } from '../../../lib/i18n';
import { BrandMark } from './brand-mark';
import './footer.css';

export function Footer() {
  const t = useT();
  return (
    <footer className="site-footer">
      <div className="flag-stripe" aria-hidden="true" />
      <div className="site-footer__inner container">
        <div className="site-footer__brand">
          <p className="brand brand--static">
            <BrandMark size={28} />
            <span className="brand__name">Tukio</span>
          </p>
          <p className="site-footer__tagline">
            {t('layout.tagline')}
          </p>
        </div>
        <nav aria-label={t('layout.footerNav')} className="site-footer__links">
          <ul>
            <li>
              <Link to={paths.events}>{t('layout.browseEvents')}</Link>
            </li>
            <li>
              <Link to={paths.plan}>{t('layout.postEvent')}</Link>
            </li>
            <li>
              <Link to={paths.about}>{t('layout.aboutFaq')}</Link>
            </li>
            <li>
              <Link to={paths.contact}>{t('layout.contactUs')}</Link>
            </li>
            <li>
              <Link to={paths.privacy}>{t('layout.privacy')}</Link>
            </li>
          </ul>
        </nav>
        <SocialLinks label={t('layout.followTukio')} className="site-footer__social" />
      </div>
      <p className="site-footer__copy">{t('layout.copyright', { year: String(new Date().getFullYear()) })}</p>
    </footer>
  );
}
