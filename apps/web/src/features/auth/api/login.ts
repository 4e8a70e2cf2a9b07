import type { LoginBody, LoginResponse } from '@paineis/contract/auth';
import { api } from '../../../lib/api-client.ts';

/** POST {auth}/login: username and password → token and user (SPEC.md section 7). */
export async function login(body: LoginBody): Promise<LoginResponse> {
  const { data } = await api.post<LoginResponse>('/auth/login', body);
  return data;
}
