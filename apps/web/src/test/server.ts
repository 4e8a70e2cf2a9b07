import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { configuracao } from './data-generators.ts';

/**
 * The network, mocked at the HTTP layer for the web tests; each test adds the answers it needs. The list screen
 * always asks for the person's favourites and recent panels, and the list and the viewer for the freshness of the
 * panels' data and (admins) their health: none, unless a test says otherwise. The server is not in demo mode.
 */
export const server = setupServer(
  http.get('/api/favoritos', () => HttpResponse.json({ paineis: [] })),
  http.get('/api/recentes', () => HttpResponse.json({ paineis: [] })),
  http.get('/api/paineis/atualizacoes', () => HttpResponse.json({})),
  http.get('/api/paineis/saude', () => HttpResponse.json([])),
  http.get('/api/configuracao', () => HttpResponse.json(configuracao())),
  // The alerts' section of /assinaturas/todas: nothing on, nobody, no incident.
  http.get('/api/alertas', () =>
    HttpResponse.json({ eventos: [], destinatarios: { usuarios: [], grupos: [] }, abertos: [], encerrados: [] }),
  ),
);
