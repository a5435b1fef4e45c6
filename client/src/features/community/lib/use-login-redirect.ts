import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';

/** Logged-out visitors trying to comment, review or post are sent to /login (docs/product.md). */
export function useLoginRedirect(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    // `from` lets the login page bring the visitor back, should it support that.
    void navigate(paths.login, { state: { from: location.pathname } });
  }, [navigate, location.pathname]);
}
