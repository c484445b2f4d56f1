/** A save the server refused: its code, its Japanese message and the fields it names (as the REST body names them). */
export class SaveRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fieldErrors: { field: string; message: string }[],
  ) {
    super(message);
  }
}

/**
 * Saves a post through `/api/blogs` (POST new, PUT `/{id}`), every time, attachment or not. Why
 * this one path: the attachment travels as the spec's `upload_files` data URL, which GraphQL cannot
 * carry (no attachment field, bodies capped at 2 MB; a 5 MB file is ~6.7 MB as base64, REST takes
 * 8 MB). One request stores the post and its file together (the service stores the file, saves the
 * post in one transaction and drops the file if that fails), so there is no half-saved post with a
 * missing file and no second version, as a GraphQL save followed by a file PUT would leave. `content`
 * is the Editor.js document itself (the REST facade takes a document as well as HTML).
 * A JSON body is also what the facade's CSRF check asks of a cookie-authenticated write.
 */
export function savePost(postId: number | null, body: Record<string, unknown>): Promise<{ blog_id: number }> {
  return sendJson(postId === null ? '/api/blogs' : `/api/blogs/${postId}`, postId === null ? 'POST' : 'PUT', body);
}

/** One JSON write to the REST facade with the session cookie: its answer, or SaveRefused with the server's code, message and field errors. */
export async function sendJson<T>(url: string, method: 'POST' | 'PUT', body: Record<string, unknown>): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new SaveRefused('NETWORK', '', []);
  }
  const answer = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.ok && answer) return answer as T;
  const fieldErrors = Array.isArray(answer?.fieldErrors)
    ? (answer.fieldErrors as { field: string; message: string }[])
    : [];
  throw new SaveRefused(
    typeof answer?.code === 'string' ? answer.code : 'INTERNAL_SERVER_ERROR',
    typeof answer?.error === 'string' ? answer.error : '',
    fieldErrors,
  );
}
