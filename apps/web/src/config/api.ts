/** The product's API base and the authentication base (docs/requirements.md#api). */
export const API_BASE = '/api';
export const AUTH_BASE = `${API_BASE}/auth`;
