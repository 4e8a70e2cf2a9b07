import { z } from 'zod';

/** The portal's own JWT: the claims SPEC.md section 3 reads, plus sub and jti. */
export const tokenClaims = z.object({
  sub: z.string(),
  jti: z.string(),
  name: z.string().optional(),
  unique_name: z.string().optional(),
  email: z.string().optional(),
  role: z.string().optional(),
  displayName: z.string().optional(),
  department: z.string().nullable().optional(),
  jobTitle: z.string().nullable().optional(),
  officeLocation: z.string().nullable().optional(),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof tokenClaims>;
