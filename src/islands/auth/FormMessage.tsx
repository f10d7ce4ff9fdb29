import type { Ref } from 'react';

/** An error (announced at once) or a confirmation (announced politely); focusable so focus can move to it. */
export function FormMessage({
  ref,
  ...props
}: {
  id: string;
  kind: 'error' | 'success';
  message: string | undefined;
  ref?: Ref<HTMLParagraphElement>;
}) {
  // The live region exists before its text does, so screen readers announce the text when it appears.
  return (
    <p
      id={props.id}
      ref={ref}
      tabIndex={-1}
      className={`auth-message ${props.kind}`}
      role={props.kind === 'error' ? 'alert' : 'status'}
    >
      {props.message}
    </p>
  );
}
