import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';

/** Logged-out visitors trying to comment, review or post are sent to /login (SPEC §5). */
export function useLoginRedirect(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    void navigate(paths.login);
  }, [navigate]);
}
