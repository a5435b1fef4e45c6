import type { ReactNode } from 'react';
import '../auth.css';

/** Centered card used by the login, register and password pages. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <div className="auth-card__stripe" aria-hidden="true" />
        <h1 className="auth-card__title">{title}</h1>
        {subtitle ? <p className="auth-card__subtitle">{subtitle}</p> : null}
        {children}
      </div>
    </section>
  );
}
