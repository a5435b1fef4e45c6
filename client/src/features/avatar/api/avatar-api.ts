import { api } from '../../../lib/api-client';
import type { SetAvatarResponse } from '../../../types/api';

/** POST /api/auth/setavatar/:id (auth, self) with the base64 SVG markup. */
export async function setAvatarRequest(userId: string, image: string): Promise<SetAvatarResponse> {
  const { data } = await api.post<SetAvatarResponse>(`/auth/setavatar/${encodeURIComponent(userId)}`, { image });
  return data;
}
