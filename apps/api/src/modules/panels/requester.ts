import type { FastifyRequest } from 'fastify';

/** Who is asking, as far as panels care: admins see and manage every panel, everyone else only their links. */
export interface Requester {
  id: string;
  email: string;
  isAdmin: boolean;
}

export const requesterOf = (request: FastifyRequest): Requester => ({
  id: request.user.id,
  email: request.user.email,
  isAdmin: request.user.role === 'Admin',
});
