/**
 * The two text rules the API and the web app share, so a role name or a search means the same on both sides.
 */

/**
 * The key two RLS role names are compared by: Power BI matches role names without regard to case, so a
 * panel may not hold 'Gerente' and 'gerente', and '?papel=gerente' chooses 'Gerente'.
 */
export const roleNameKey = (roleName: string): string => roleName.trim().toLocaleLowerCase('pt-BR');

export const sameRoleName = (a: string, b: string): boolean => roleNameKey(a) === roleNameKey(b);

/** Lower case, without accents and surrounding spaces, so 'jose' finds 'José' and 'gestao' finds 'Gestão'. */
export function normalizeSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLocaleLowerCase('pt-BR')
    .trim();
}
