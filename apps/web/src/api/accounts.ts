import type {
  ApiTokenCreated,
  ApiTokenList,
  AuditLogResponse,
  CompanyMember,
  ConfigureMfaResponse,
  CurrentUserResponse,
  DemoRequestBody,
  DownloadLinkHoursResponse,
  LoginBody,
  LoginResponse,
  PermissionsResponse,
  RegisterBody,
  RegisterResponse,
  RecoveryCodesStatus,
  TwoFaMethod,
} from '@crp/contracts';
import { request } from './http';

export type RegisterResult = ReturnType<typeof RegisterResponse.parse>;
export type ConfigureMfaResult = ReturnType<typeof ConfigureMfaResponse.parse>;
export type RegisterInput = Omit<RegisterBody, 'company_code'> & { company_code?: string };

export type LoginResult = { kind: 'signed-in'; data: LoginResponse } | { kind: '2fa-required'; method: TwoFaMethod };

export async function login(body: LoginBody): Promise<LoginResult> {
  const res = await request<LoginResponse | { detail: string; method?: TwoFaMethod }>('POST', '/api/user/rest_login/', {
    form: { ...body },
    auth: false,
    sessionCall: false,
  });
  if (res.status === 202 || (res.data as { detail?: string }).detail === '2FA_REQUIRED') {
    const method = (res.data as { method?: TwoFaMethod }).method === 'email' ? 'email' : 'app';
    return { kind: '2fa-required', method };
  }
  return { kind: 'signed-in', data: res.data as LoginResponse };
}

export async function logout(token: string): Promise<void> {
  await request('POST', '/api/user/rest_logout/', { token, sessionCall: false });
}

/** Ends every session of the user, on every device (this one included). */
export async function logoutEverywhere(token: string): Promise<{ detail: string; sessions: number }> {
  return (await request<{ detail: string; sessions: number }>('POST', '/api/user/rest_logout_all/', { token, sessionCall: false })).data;
}

/** How long the company's new download links (exports, reports) last, hours. */
export async function fetchDownloadLinkHours(): Promise<DownloadLinkHoursResponse> {
  return (await request<DownloadLinkHoursResponse>('GET', '/api/company/download_link_hours/')).data;
}

/** Shortens (or restores) the lifetime of the company's new download links, 1-24 hours (administrators only). */
export async function setDownloadLinkHours(hours: number): Promise<DownloadLinkHoursResponse> {
  return (await request<DownloadLinkHoursResponse>('POST', '/api/company/download_link_hours/', { json: { hours } })).data;
}

export async function register(body: RegisterInput): Promise<RegisterResult> {
  return (await request<RegisterResult>('POST', '/api/user/register/', { json: body, auth: false, sessionCall: false })).data;
}

export async function fetchCurrentUser(): Promise<CurrentUserResponse> {
  return (await request<CurrentUserResponse>('GET', '/accounts/user/')).data;
}

export async function fetchPermissions(userId: number): Promise<PermissionsResponse> {
  return (await request<PermissionsResponse>('GET', `/api/user/permissions/${userId}/`)).data;
}

export async function configureMultifactor(method: TwoFaMethod): Promise<ConfigureMfaResult> {
  return (await request<ConfigureMfaResult>('GET', `/user/configure_multifactor/${method}`)).data;
}

/** The password and a code of the method in force: needed to change or turn off 2FA while it is on. */
export interface MfaConfirmation {
  password: string;
  current_code: string;
}

/** `recovery_codes` comes once, when 2FA is turned on (ten single-use codes to show and save). */
export interface VerifyMfaResult {
  detail: string;
  recovery_codes?: string[];
}

export async function verifyMultifactor(method: TwoFaMethod, code: string, confirmation?: MfaConfirmation): Promise<VerifyMfaResult> {
  // A wrong code is a 400 and a wrong password or current code a 403: never a lost session.
  return (await request<VerifyMfaResult>('POST', `/user/configure_multifactor/${method}/`, { form: { code, ...confirmation } })).data;
}

/** How many recovery codes are left. */
export async function fetchRecoveryCodesStatus(): Promise<RecoveryCodesStatus> {
  return (await request<RecoveryCodesStatus>('GET', '/user/multifactor/recovery_codes/')).data;
}

/** Ten new recovery codes (the old ones stop working); needs a current code of the method in force. */
export async function regenerateRecoveryCodes(currentCode: string): Promise<{ detail: string; recovery_codes: string[] }> {
  return (await request<{ detail: string; recovery_codes: string[] }>('POST', '/user/multifactor/recovery_codes/', { json: { current_code: currentCode } }))
    .data;
}

/** "Forgot password?": the same answer whether or not an account matches. */
export async function requestPasswordReset(body: { email?: string; username?: string; company_code?: string }): Promise<{ detail: string }> {
  return (await request<{ detail: string }>('POST', '/api/user/password_reset/request/', { json: body, auth: false, sessionCall: false })).data;
}

/** Sets a new password with the token of a reset link. */
export async function confirmPasswordReset(body: { token: string; password: string; confirm_password: string }): Promise<{ detail: string }> {
  return (await request<{ detail: string }>('POST', '/api/user/password_reset/confirm/', { json: body, auth: false, sessionCall: false })).data;
}

/** E-mails a code of the e-mail method in force (to confirm a change or a turn-off). */
export async function sendCurrentMfaCode(): Promise<{ detail: string; sent_to: string }> {
  return (await request<{ detail: string; sent_to: string }>('POST', '/user/multifactor/current_code/')).data;
}

export async function disableMultifactor(confirmation: MfaConfirmation): Promise<{ detail: string }> {
  return (await request<{ detail: string }>('POST', '/user/disable_multifactor/', { form: { ...confirmation } })).data;
}

export async function markNotificationRead(notificationId: number): Promise<void> {
  await request('POST', '/api/user/mark_notification_read/', { form: { notification_id: notificationId } });
}

export async function updateLastAccessed(path: string): Promise<void> {
  await request('POST', '/user/update_last_accessed', { form: { path }, sessionCall: false });
}

/** The landing page's demo request, as the server's schema reads it. */
export type DemoRequestInput = DemoRequestBody;

export async function requestDemo(body: DemoRequestInput): Promise<{ detail: string }> {
  return (await request<{ detail: string }>('POST', '/api/demo_request/', { json: body, auth: false, sessionCall: false })).data;
}

export async function fetchCompanyMembers(): Promise<CompanyMember[]> {
  return (await request<CompanyMember[]>('GET', '/api/company/members/')).data;
}

export async function decideCompanyMember(userId: number, decision: 'approve' | 'reject'): Promise<{ detail: string }> {
  return (await request<{ detail: string }>('POST', `/api/company/members/${userId}/${decision}/`)).data;
}

export interface AuditLogParams {
  page: number;
  page_size: number;
  action?: string | undefined;
  from?: string | undefined;
}

export async function fetchAuditLog(params: AuditLogParams): Promise<AuditLogResponse> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  return (await request<AuditLogResponse>('GET', `/api/v2/audit_log/?${q.toString()}`)).data;
}

/** Your personal API tokens (a company administrator: the company's, with `company`). */
export async function fetchApiTokens(scope: 'mine' | 'company'): Promise<ApiTokenList> {
  return (await request<ApiTokenList>('GET', scope === 'company' ? '/api/company/api_tokens/' : '/api/user/api_tokens/')).data;
}

/** Makes a read-only personal API token; the answer holds the secret, shown this once. */
export async function createApiToken(name: string, expiresInDays: number): Promise<ApiTokenCreated> {
  return (await request<ApiTokenCreated>('POST', '/api/user/api_tokens/', { json: { name, expires_in_days: expiresInDays } })).data;
}

export async function revokeApiToken(tokenId: number): Promise<{ detail: string }> {
  return (await request<{ detail: string }>('POST', `/api/user/api_tokens/${tokenId}/revoke/`)).data;
}
