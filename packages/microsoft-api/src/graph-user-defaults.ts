// Apart from graph.ts (and free of zod) so that the Graph stand-in answers from the same list without loading
// the operations' schemas.

/**
 * What Get user and List users answer without $select, in the order Graph v1.0 writes them (id last): userType,
 * department and accountEnabled are not among them.
 */
export const USER_DEFAULT_PROPERTIES: readonly string[] = [
  'businessPhones',
  'displayName',
  'givenName',
  'jobTitle',
  'mail',
  'mobilePhone',
  'officeLocation',
  'preferredLanguage',
  'surname',
  'userPrincipalName',
  'id',
];
