/** E-mails are compared without regard to case, as the server stores them. */
export const emailKey = (email: string) => email.trim().toLowerCase();
