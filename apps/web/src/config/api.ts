/** The product's API base and the authentication base (SPEC.md section 7). */
export const API_BASE = '/api';
export const AUTH_BASE = `${API_BASE}/auth`;
