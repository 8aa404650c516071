import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishWords, translations } from '@zxcvbn-ts/language-en';

/**
 * Password rules of OWASP ASVS 4.0.3 level 2 (V2.1): at least 12 characters (V2.1.1; the length and the 256-character
 * cap are in the shared schema, `@crp/contracts` RegisterBody), any characters allowed and no composition rules
 * (V2.1.9), not a common or breached password (V2.1.7), not the account's own username or e-mail address, and strong
 * enough by a password strength estimator (V2.1.8): repeats (`aaaaaaaaaaaa`), sequences (`abcdefghijkl`), keyboard
 * walks (`qwertyuiopas`) and passwords of spaces only are refused (issue 32).
 *
 * The list: `passwords-common` of the npm package @zxcvbn-ts/language-common (MIT licence; 49,233 passwords, most
 * frequent first, from leaked-password corpora as compiled by the zxcvbn-ts project), loaded once on first use.
 * The estimator: @zxcvbn-ts/core 4 (MIT; Dropbox's zxcvbn rewritten in TypeScript) with the common and English
 * dictionaries and keyboard graphs of @zxcvbn-ts/language-common and @zxcvbn-ts/language-en.
 */
let common: Set<string> | null = null;
function commonPasswords(): Set<string> {
  common ??= new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return common;
}

/** How many passwords the list holds (for the docs and tests). */
export const commonPasswordCount = () => commonPasswords().size;

/**
 * The lowest zxcvbn score accepted: 0 to 4, where 3 is "safely unguessable: moderate protection from an offline
 * slow-hash scenario" (about 10^8 to 10^10 guesses, zxcvbn's own scale) and what zxcvbn's authors recommend for
 * sign-up forms. Our hashes are Argon2id, a slow hash, so 3 is enough; 2 lets `Password123456!`-style passwords in.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * The estimator looks at the first 64 characters only (a longer password is at least as strong as its start) and tries
 * at most 8 l33t substitutions: with zxcvbn's defaults (256, 100) one hostile 256-character password took 4.4 s of the
 * event loop on the 2-core development machine; with these bounds the worst of our probes took 45 ms.
 */
let estimator: ZxcvbnFactory | null = null;
function strength(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...dictionary, ...englishWords },
    graphs: adjacencyGraphs,
    translations,
    maxLength: 64,
    l33tMaxSubstitutions: 8,
  });
  return estimator;
}

/** zxcvbn's score (0-4) and its feedback as one plain sentence or two. */
export function passwordStrength(password: string, userInputs: string[] = []): { score: number; feedback: string } {
  const r = strength().check(password, userInputs);
  const words = [r.feedback.warning, ...r.feedback.suggestions].filter((s): s is string => !!s);
  return { score: r.score, feedback: words.join(' ') };
}

/**
 * Why `password` may not be used, as a sentence starting with the field name, or null when it is fine. A password is
 * refused when it is only white space; when it, lower-cased, is in the list, or is a listed password with digits and
 * symbols added at the ends (`Password123456!`, `!!qwertyuiop12`: the usual way a listed password is stretched to a
 * length rule); when it holds the username or the e-mail address's local part (4 characters or more) or the whole
 * address; and when zxcvbn scores it below MIN_PASSWORD_SCORE (repeats, sequences, keyboard walks, dates, names), with
 * zxcvbn's feedback in the message.
 */
export function passwordProblem(password: string, context: { username?: string | undefined; email?: string | undefined }): string | null {
  if (!password.trim()) return 'password: the password must not be only spaces. Choose a few unrelated words instead.';
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
  const { score, feedback } = passwordStrength(password, [username, email, local].filter(Boolean));
  if (score < MIN_PASSWORD_SCORE) {
    return `password: this password is too easy to guess (strength ${score} of 4, at least ${MIN_PASSWORD_SCORE} needed). ${feedback || 'Add more words that are less common.'}`.trim();
  }
  return null;
}
