/**
 * What InstallButton draws before it knows of any IDE, as the server renders it: shown while its code loads
 * (ItemInstall is a chunk of its own), so the button's box is the same from the first frame.
 */
export function InstallButtonPending() {
  return (
    <span className="mp-install">
      <button type="button" className="mp-button" disabled aria-busy="true">
        <span className="mp-spinner" aria-hidden="true" />
        Install
      </button>
    </span>
  );
}
