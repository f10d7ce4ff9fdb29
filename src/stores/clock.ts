import { atom, onMount } from 'nanostores';

/** The current time in ms, refreshed every 30 s while anything shows a relative age. */
export const $now = atom(Date.now());

onMount($now, () => {
  $now.set(Date.now());
  const timer = setInterval(() => $now.set(Date.now()), 30_000);
  return () => clearInterval(timer);
});
