import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getRoleOnce } from '../api/tickets-api';
import { useStaffAccess } from './use-staff-access';

vi.mock('../api/tickets-api', () => ({ getRoleOnce: vi.fn() }));

const ADMIN = 'a'.repeat(24);
const OWNER = 'o'.repeat(24);
const unreachable = () => Object.assign(new Error('Network Error'), { isHttpError: true });

beforeEach(() => vi.mocked(getRoleOnce).mockReset());
afterEach(() => {
  // No vitest globals: Testing Library's automatic unmount is not registered.
  cleanup();
  vi.restoreAllMocks();
});

describe('useStaffAccess', () => {
  it('asks an admin\'s role again when the connection returns, if it failed for want of one', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.mocked(getRoleOnce).mockImplementation(() => Promise.reject(unreachable()));
    const { result, rerender } = renderHook(({ online }) => useStaffAccess(ADMIN, OWNER, online), { initialProps: { online: false } });
    await waitFor(() => expect(result.current).toBe('denied'));

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    vi.mocked(getRoleOnce).mockImplementation(async () => 'admin');
    rerender({ online: true });
    expect(result.current).toBe('checking');
    await waitFor(() => expect(result.current).toBe('allowed'));
  });
});
