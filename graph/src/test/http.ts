/** Small HTTP helpers for tests that go through the real server. */
export interface Json {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each test reads the JSON it expects
}

export async function api(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Json> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export async function gql(
  base: string,
  query: string,
  variables: Record<string, unknown> = {},
  opts: { token?: string; cookie?: string; headers?: Record<string, string> } = {},
): Promise<Json> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

export async function loginToken(base: string, loginId: string, password = 'intranet-demo'): Promise<string> {
  const r = await api(base, 'POST', '/auth/login', { body: { loginId, password } });
  if (r.status !== 200) throw new Error(`login ${loginId} failed: ${JSON.stringify(r.body)}`);
  return r.body.token;
}
