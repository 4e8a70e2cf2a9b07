import { api } from '../../../lib/api-client.ts';

/** POST {auth}/logout-complete: empty body, bearer header; the answer is not read. */
export async function logoutComplete(): Promise<void> {
  await api.post('/auth/logout-complete');
}
