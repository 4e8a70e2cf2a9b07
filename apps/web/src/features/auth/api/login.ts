import type { LoginBody, LoginResponse } from '@paineis/contract/auth';
import { api } from '../../../lib/api-client.ts';

/** POST {auth}/login: username and password → token and user (docs/requirements.md#sign-in-flows). */
export async function login(body: LoginBody): Promise<LoginResponse> {
  const { data } = await api.post<LoginResponse>('/auth/login', body);
  return data;
}
