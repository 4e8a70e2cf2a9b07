import axios, { AxiosError, type InternalAxiosRequestConfig } from 'axios';
import { API_BASE } from '../config/api.ts';
import { readToken } from './session-storage.ts';

/** The one HTTP client (docs/requirements.md#api and #ui-constants): JSON, bearer token, no timeout. */
export const api = axios.create({
  baseURL: API_BASE,
  timeout: 0,
  headers: { 'Content-Type': 'application/json' },
});

api.interceptors.request.use((config) => {
  const token = readToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

let onUnauthorized: (() => void) | null = null;

/** The auth provider registers what a 401 does: sign out and go to /login. */
export function setUnauthorizedHandler(handler: (() => void) | null) {
  onUnauthorized = handler;
}

api.interceptors.response.use(undefined, (error: unknown) => {
  if (error instanceof AxiosError && error.response?.status === 401) {
    const config = error.config as (InternalAxiosRequestConfig & { _handled401?: boolean }) | undefined;
    // Once per request (docs/requirements.md#session-states); the sign-out call itself never triggers another sign-out.
    if (config && !config._handled401 && !config.url?.includes('/logout-complete')) {
      config._handled401 = true;
      onUnauthorized?.();
    }
  }
  return Promise.reject(error instanceof Error ? error : new Error(String(error)));
});

/** The server's Portuguese message when it sent one, else the screen's own (docs/requirements.md#error-catalogue). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof AxiosError) {
    const message = (error.response?.data as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return fallback;
}

/** The HTTP status of a failed call, if it got an answer. */
export const statusOf = (error: unknown) => (error instanceof AxiosError ? error.response?.status : undefined);
