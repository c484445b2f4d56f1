import { useEffect, useState } from 'react';

/** `value` once it has stayed the same for `ms` (typing in a filter sends one request, not one per key). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const h = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(h);
  }, [value, ms]);
  return settled;
}
