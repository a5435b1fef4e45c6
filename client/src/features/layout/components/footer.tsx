import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { SocialLinks } from '../../../components/social-links';
import { BrandMark } from './brand-mark';
import './footer.css';

export function Footer() {
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
            Discover, plan and attend the best events across Kenya.
          </p>
        </div>
        <nav aria-label="Footer" className="site-footer__links">
          <ul>
            <li>
              <Link to={paths.events}>Browse events</Link>
            </li>
            <li>
              <Link to={paths.plan}>Post an event</Link>
            </li>
            <li>
              <Link to={paths.about}>About &amp; FAQ</Link>
            </li>
            <li>
              <Link to={paths.contact}>Contact us</Link>
            </li>
          </ul>
        </nav>
        <SocialLinks label="Follow Tukio" className="site-footer__social" />
      </div>
      <p className="site-footer__copy">© 2024 Tukio. All rights reserved.</p>
    </footer>
  );
}
