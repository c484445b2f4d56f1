import { useState } from 'react';
import { Button, Spinner } from '@primer/react';
import { DownloadIcon } from '@primer/octicons-react';
import { useT } from '../app/i18n';
import { toast } from './Toast';

function filenameOf(res: Response, fallback: string): string {
  const cd = res.headers.get('Content-Disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(cd);
  return plain ? plain[1] : fallback;
}

/** Downloads the filtered list as .xlsx from the REST export; `empty`: nothing matches, nothing to export. */
export function ExportButton({
  path,
  params,
  fallbackName,
  empty = false,
}: {
  path: string;
  params: Record<string, string | undefined>;
  fallbackName: string;
  empty?: boolean;
}) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
      const res = await fetch(`${path}?${q}`, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(String(res.status));
      const blob = await res.blob();
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = filenameOf(res, fallbackName);
      document.body.appendChild(a);
      a.click();
      a.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast.success(t('grid.exported'));
    } catch {
      toast.error(t('grid.exportFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      leadingVisual={busy ? () => <Spinner size="small" srText={null} /> : DownloadIcon}
      onClick={() => void run()}
      disabled={busy || empty}
    >
      {busy ? t('grid.exporting') : t('grid.export')}
    </Button>
  );
}
