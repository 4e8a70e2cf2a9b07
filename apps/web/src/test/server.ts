import { setupServer } from 'msw/node';

/** The network, mocked at the HTTP layer for the web tests; each test adds the answers it needs. */
export const server = setupServer();
