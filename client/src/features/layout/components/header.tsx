import { useEffect, useId, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useIsServerRender } from '../../../hooks/use-is-server-render';
import { useSession } from '../../../hooks/use-session';
import { logoutRequest } from '../../../lib/logout-request';
import { useT } from '../../../lib/i18n';
import { BrandMark } from './brand-mark';
import { LanguageSwitch } from './language-switch';
import './header.css';

const mainLinks = [
  { to: paths.home, label: 'layout.home', end: true },
  { to: paths.events, label: 'layout.events', end: false },
  { to: paths.plan, label: 'layout.planEvent', end: false },
  { to: paths.contact, label: 'layout.contact', end: false },
  { to: paths.about, label: 'layout.about', end: false },
] as const;

const navClass = ({ isActive }: { isActive: boolean }) =>
  `site-nav__link${isActive ? ' site-nav__link--active' : ''}`;

export function Header() {
  const { isLoggedIn, token, logout } = useSession();
  // The server-rendered shell cannot know whether the visitor is signed in: it shows neither
  // 'Login/Signup' nor 'Profile' until the app has loaded, so a signed-in user never sees the wrong one.
  const sessionUnknown = useIsServerRender();
  const navigate = useNavigate();
  const t = useT();
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();

  // Escape closes the mobile menu.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const handleLogout = () => {
    if (token) logoutRequest(token);
    logout();
    setMenuOpen(false);
    void navigate(paths.login);
  };

  return (
    <header className="site-header">
      <div className="site-header__bar container">
        <Link to={paths.home} className="brand" aria-label={t('layout.brandHome')}>
          <BrandMark />
          <span className="brand__name" aria-hidden="true">
            Tukio
          </span>
        </Link>

        <LanguageSwitch />

        <button
          type="button"
          className="site-header__toggle"
          aria-expanded={menuOpen}
          aria-controls={navId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className={`hamburger${menuOpen ? ' hamburger--open' : ''}`} aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          <span className="site-header__toggle-label">{t('layout.menu')}</span>
        </button>

        <nav
          id={navId}
          aria-label={t('layout.mainNav')}
          className={`site-nav${menuOpen ? ' site-nav--open' : ''}`}
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a')) setMenuOpen(false);
          }}
        >
          <ul className="site-nav__list">
            {mainLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.end} className={navClass}>
                  {t(link.label)}
                </NavLink>
              </li>
            ))}
            {sessionUnknown ? null : isLoggedIn ? (
              <>
                <li>
                  <NavLink to={paths.profile} className={navClass}>
                    {t('layout.profile')}
                  </NavLink>
                </li>
                <li>
                  <button type="button" className="site-nav__logout" onClick={handleLogout}>
                    {t('layout.logout')}
                  </button>
                </li>
              </>
            ) : (
              <li>
                <NavLink to={paths.login} className={({ isActive }) => `${navClass({ isActive })} site-nav__cta`}>
                  {t('layout.loginSignup')}
                </NavLink>
              </li>
            )}
          </ul>
        </nav>
      </div>
      <div className="flag-stripe" aria-hidden="true" />
    </header>
  );
}
