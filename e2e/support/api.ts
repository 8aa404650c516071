/** Direct API calls for test set-up (users, approvals); the browser does everything under test. */

export interface ApiUser {
  id: number;
  username: string;
  password: string;
  token: string;
  companyCode: string;
}

async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  opts: { json?: unknown; form?: Record<string, string>; token?: string } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  if (opts.token) headers.Authorization = `Token ${opts.token}`;
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function registerUser(
  baseUrl: string,
  u: { username: string; password: string; firstName: string; lastName: string; companyName: string; companyCode?: string },
): Promise<{ id: number; companyCode: string; status: string }> {
  const res = await call<{ user: { id: number }; company_code: string; status: string; detail: string }>(baseUrl, 'POST', '/api/user/register/', {
    json: {
      first_name: u.firstName,
      last_name: u.lastName,
      username: u.username,
      email: `${u.username}@example.com`,
      password: u.password,
      confirm_password: u.password,
      company_name: u.companyName,
      ...(u.companyCode ? { company_code: u.companyCode } : {}),
    },
  });
  if (res.status >= 300) throw new Error(`register ${u.username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.user.id, companyCode: res.body.company_code, status: res.body.status };
}

export async function loginUser(baseUrl: string, username: string, password: string, companyCode: string): Promise<string> {
  const res = await call<{ token: string }>(baseUrl, 'POST', '/api/user/rest_login/', { form: { username, password, company_code: companyCode } });
  if (res.status >= 300 || !res.body.token) throw new Error(`login ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

export async function approveMember(baseUrl: string, adminToken: string, userId: number): Promise<void> {
  const res = await call(baseUrl, 'POST', `/api/company/members/${userId}/approve/`, { token: adminToken });
  if (res.status >= 300) throw new Error(`approve ${userId}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** True when the server has a route for this call (anything but its "No route" 404). */
export async function hasRoute(baseUrl: string, method: string, path: string, token: string): Promise<boolean> {
  const res = await call<{ detail?: string }>(baseUrl, method, path, { token, ...(method === 'POST' ? { form: {} } : {}) });
  return !(res.status === 404 && /^No route/.test(res.body?.detail ?? ''));
}

export async function apiGet<T>(baseUrl: string, path: string, token: string): Promise<{ status: number; body: T }> {
  return call<T>(baseUrl, 'GET', path, { token });
}

export async function apiPost<T>(baseUrl: string, path: string, token: string, json: unknown): Promise<{ status: number; body: T }> {
  return call<T>(baseUrl, 'POST', path, { token, json });
}
