import type { TemposVisualizacaoBody } from '@paineis/contract/usage';
import { API_BASE } from '../../../config/api.ts';
import { readToken } from '../../../lib/session-storage.ts';

/**
 * POST /paineis/{id}/visualizacoes/{visualizacaoId}: how fast one opening's report loaded (docs/requirements.md#usage).
 * Best-effort, so never through `api`: a failure throws nothing and shows nothing, and a 401 here must not sign the
 * person out. `keepalive` lets the request outlive the page when it is sent as the person leaves.
 */
export function postViewTimings(panelId: number, viewId: string, body: TemposVisualizacaoBody): void {
  const token = readToken();
  if (!token) return;
  try {
    const target = new URL(
      `${API_BASE}/paineis/${panelId}/visualizacoes/${encodeURIComponent(viewId)}`,
      window.location.href,
    );
    fetch(target, {
      method: 'POST',
      keepalive: true,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }).catch(() => undefined);
  } catch {
    // Nothing to tell the person: the report is only for the usage statistics.
  }
}
