/** The failure of a form, in place, as the server (or the form's own check) worded it (see useFormAction). */
export function FormFailure({ text }: { text: string }) {
  if (!text) return null;
  return (
    <p className="site-error" role="alert">
      {text}
    </p>
  );
}
