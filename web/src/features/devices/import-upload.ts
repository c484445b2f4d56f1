/** What the import upload answered: the new preview job, or the server's refusal (its `error` text). */
export type UploadOutcome = { jobId: string } | { error: string | null };

/**
 * Sends one spreadsheet to `POST /api/computers/import?dry_run=1&wait=0` as multipart/form-data and
 * reports upload progress (0–100). The extra header makes the request non-simple, which the REST
 * facade's CSRF defence requires for cookie-authenticated writes.
 */
export function uploadImport(file: File, onProgress: (pct: number) => void): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/computers/import?dry_run=1&wait=0');
    xhr.withCredentials = true;
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      const body = (xhr.response ?? {}) as { job_id?: string; error?: string };
      if (xhr.status < 300 && body.job_id) resolve({ jobId: body.job_id });
      else resolve({ error: typeof body.error === 'string' ? body.error : null });
    };
    xhr.onerror = () => resolve({ error: null });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
