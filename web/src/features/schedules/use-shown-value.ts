import { useState } from 'react';

/**
 * The value the data on screen was loaded for: `value` once `loaded`, until then the last loaded one.
 * While the next page loads the previous rows stay on screen, and what labels them (the pager's range)
 * must stay with them.
 */
export function useShownValue<T>(value: T, loaded: boolean): T {
  const [shown, setShown] = useState(value);
  if (loaded && shown !== value) setShown(value);
  return loaded ? value : shown;
}
