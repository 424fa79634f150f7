/**
 * The mark of a required field, after its label (the field itself carries `required` and `aria-required`, which
 * is what assistive technology reads; the star is for the eye). `RequiredNote` explains the star once per form.
 */
export function RequiredMark() {
  return (
    <span className="site-required" aria-hidden="true">
      {' '}
      *
    </span>
  );
}

export function RequiredNote() {
  return (
    <p className="site-muted site-required-note">
      <span className="site-required" aria-hidden="true">
        *
      </span>{' '}
      Required
    </p>
  );
}
