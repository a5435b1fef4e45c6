import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getRole } from '../api/tickets-api';
import { queryWrapper } from '../../../test-query-client';
import { useStaffAccess } from './use-staff-access';

vi.mock('../api/tickets-api', () => ({ getRole: vi.fn() }));

const ADMIN = 'a'.repeat(24);
const OWNER = 'o'.repeat(24);
const unreachable = () => Object.assign(new Error('Network Error'), { isHttpError: true });

beforeEach(() => vi.mocked(getRole).mockReset());
afterEach(() => {
  // No vitest globals: Testing Library's automatic unmount is not registered.
  cleanup();
  vi.restoreAllMocks();
});

describe('useStaffAccess', () => {
  it('asks an admin\'s role again when the connection returns, if it failed for want of one', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.mocked(getRole).mockImplementation(() => Promise.reject(unreachable()));
    const { result, rerender } = renderHook(({ online }) => useStaffAccess(ADMIN, OWNER, online), { initialProps: { online: false }, wrapper: queryWrapper() });
    await waitFor(() => expect(result.current).toBe('denied'));

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    vi.mocked(getRole).mockImplementation(async () => 'admin');
    rerender({ online: true });
    expect(result.current).toBe('checking');
    await waitFor(() => expect(result.current).toBe('allowed'));
  });
});
