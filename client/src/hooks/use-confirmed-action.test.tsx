import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../lib/api-client';
import { useConfirmedAction } from './use-confirmed-action';

describe('useConfirmedAction', () => {
  it('opens on ask, stays open and cannot be closed while the action runs, and closes when it succeeds', async () => {
    let finish!: () => void;
    const action = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { result } = renderHook(() => useConfirmedAction(action, 'Could not delete.'));
    expect(result.current.dialog.open).toBe(false);
    act(() => result.current.ask('question-1'));
    expect(result.current.dialog.open).toBe(true);
    expect(result.current.item).toBe('question-1');

    act(() => result.current.dialog.onConfirm());
    expect(action).toHaveBeenCalledWith('question-1');
    await waitFor(() => expect(result.current.dialog.busy).toBe(true));
    act(() => result.current.dialog.onClose());
    expect(result.current.dialog.open).toBe(true);

    await act(async () => finish());
    await waitFor(() => expect(result.current.dialog.open).toBe(false));
    expect(result.current.dialog.busy).toBe(false);
  });

  it("shows the server's reason, or the fallback, and the action's own refusal, keeping the dialog open; asking again clears it", async () => {
    const outcomes: Array<() => Promise<string | void>> = [
      () => Promise.reject(new HttpError('Request failed with status code 409', { status: 409, data: { msg: 'This code was already used.' } })),
      () => Promise.reject(new Error('network')),
      () => Promise.resolve('Give a reason of at least 3 characters.'),
    ];
    const { result } = renderHook(() => useConfirmedAction(() => outcomes.shift()!(), 'Could not delete.'));
    act(() => result.current.ask('code-1'));
    for (const expected of ['This code was already used.', 'Could not delete.', 'Give a reason of at least 3 characters.']) {
      act(() => result.current.dialog.onConfirm());
      await waitFor(() => expect(result.current.dialog.error).toBe(expected));
      expect(result.current.dialog.open).toBe(true);
      expect(result.current.dialog.busy).toBe(false);
    }
    act(() => result.current.dialog.onClose());
    expect(result.current.dialog.open).toBe(false);
    act(() => result.current.ask('code-2'));
    expect(result.current.dialog.error).toBeNull();
  });
});
