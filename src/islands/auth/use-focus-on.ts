import { useEffect, useRef } from 'react';

/**
 * A ref that receives focus whenever `trigger` changes to a truthy value: an error message or the field
 * at fault gets focus, so keyboard and screen-reader users land on what needs fixing.
 */
export function useFocusOn<T extends HTMLElement>(trigger: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (trigger) ref.current?.focus();
  }, [trigger]);
  return ref;
}
