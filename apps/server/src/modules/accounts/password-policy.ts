import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Password rules of OWASP ASVS 4.0.3 level 2 (V2.1): at least 12 characters (V2.1.1; the length and the 256-character
 * cap are in the shared schema, `@crp/contracts` RegisterBody), any characters allowed and no composition rules
 * (V2.1.9), not a common or breached password (V2.1.7), and not the account's own username or e-mail address.
 *
 * The list: `passwords-common` of the npm package @zxcvbn-ts/language-common (MIT licence; 49,233 passwords, most
 * frequent first, from leaked-password corpora as compiled by the zxcvbn-ts project), loaded once on first use.
 */
let common: Set<string> | null = null;
function commonPasswords(): Set<string> {
  common ??= new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return common;
}

/** How many passwords the list holds (for the docs and tests). */
export const commonPasswordCount = () => commonPasswords().size;

/**
 * Why `password` may not be used, as a sentence starting with the field name, or null when it is fine. A password is
 * refused when it, lower-cased, is in the list, or is a listed password with digits and symbols added at the ends
 * (`Password123456!`, `!!qwertyuiop12`: the usual way a listed password is stretched to a length rule), or holds the
 * username or the e-mail address's local part (4 characters or more) or the whole address.
 */
export function passwordProblem(password: string, context: { username?: string | undefined; email?: string | undefined }): string | null {
  const lower = password.toLowerCase();
  const list = commonPasswords();
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  if (list.has(lower) || (core.length >= 4 && list.has(core)) || list.has(lower.replace(/\s+/g, ''))) {
    return 'password: this password is on a list of common or breached passwords. Choose another one (a few unrelated words make a strong password).';
  }
  const username = context.username?.trim().toLowerCase() ?? '';
  const email = context.email?.trim().toLowerCase() ?? '';
  const local = email.split('@')[0] ?? '';
  if ((username.length >= 4 && lower.includes(username)) || (email && lower.includes(email)) || (local.length >= 4 && lower.includes(local))) {
    return 'password: the password must not contain your username or e-mail address.';
  }
  return null;
}
