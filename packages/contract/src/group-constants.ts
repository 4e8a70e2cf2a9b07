/**
 * The words for public Microsoft 365 groups (docs/decisions/018-access-by-group.md, "Public groups"), without zod, so
 * the web app marks them as the API explains them.
 */

/** A Microsoft 365 group whose Graph `visibility` is 'Public': anyone in the organisation may join it unapproved. */
export const PUBLIC_GROUP_NOTE = 'Grupo público: qualquer pessoa pode entrar';

/** PUBLIC_GROUPS_GRANT=none: a public group linked to a panel lets nobody open it. */
export const PUBLIC_GROUP_GRANTS_NO_PANEL = 'Grupo público: não concede acesso a painéis (PUBLIC_GROUPS_GRANT)';

/** PUBLIC_GROUPS_GRANT=panels (the default) or none: a public group listed in an RLS role gives that role to nobody. */
export const PUBLIC_GROUP_GRANTS_NO_ROLE = 'Grupo público: não concede papéis RLS (PUBLIC_GROUPS_GRANT)';
