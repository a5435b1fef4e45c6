/*
 * Auth feature: sign-in, registration, password reset and email verification pages' parts.
 * The session itself is app-wide state: src/hooks/use-session.ts (used by many features).
 */
export { AuthCard } from './components/auth-card';
export { ForgotPasswordForm } from './components/forgot-password-form';
export { LoginForm } from './components/login-form';
export { RegisterForm } from './components/register-form';
export { ResetPasswordForm } from './components/reset-password-form';
export { useEmailVerification } from './hooks/use-email-verification';
