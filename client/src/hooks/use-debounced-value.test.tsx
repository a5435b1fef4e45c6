import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedValue } from './use-debounced-value';

describe('useDebouncedValue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps the last settled value until the new one has held for the delay', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 300), { initialProps: { value: 'nai' } });
    expect(result.current).toBe('nai');

    rerender({ value: 'nair' });
    act(() => vi.advanceTimersByTime(200));
    rerender({ value: 'nairobi' });
    act(() => vi.advanceTimersByTime(200));
    // 400 ms after the first change, but only 200 ms after the last: still the old value.
    expect(result.current).toBe('nai');

    act(() => vi.advanceTimersByTime(100));
    expect(result.current).toBe('nairobi');
  });
});
