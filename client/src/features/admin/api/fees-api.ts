/*
 * The platform fee per paid ticket (server/src/modules/fees, docs/decisions/fees.md): the administrator's
 * setting and its history.
 */
import { api } from '../../../lib/api-client';

export interface PlatformFee {
  /** Percent of each paid ticket's price (two decimals at most). */
  percent: number;
  /** Whole shillings per paid ticket. */
  fixed: number;
  /** The least per paid ticket, whole shillings. */
  minimum: number;
}

export interface PlatformFeeSettings {
  fee: PlatformFee;
  /** Every setting, newest first (the first is in force). `setBy` null: the configuration of a fresh install. */
  history: Array<PlatformFee & { setBy: string | null; setAt: string }>;
}

/** GET /api/admin/fees (admin). */
export async function getPlatformFee(signal?: AbortSignal): Promise<PlatformFeeSettings> {
  const { data } = await api.get<PlatformFeeSettings>('/admin/fees', { signal });
  return data;
}

/** PUT /api/admin/fees (admin) -> the settings after it; a 400 names the field refused (text that is not a number too). */
export async function setPlatformFee(fee: Record<keyof PlatformFee, number | string>): Promise<PlatformFeeSettings> {
  const { data } = await api.put<PlatformFeeSettings>('/admin/fees', fee);
  return data;
}
