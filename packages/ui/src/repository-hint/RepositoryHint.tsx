import { useRef, useState } from 'react';

export interface RepositoryHintProps {
  /** The IDE asked to install, named in the hint. */
  ideName: string;
  /** This marketplace's feed for the IDE, `<marketplace>/plugins/list`. */
  repositoryUrl: string;
}

/**
 * Says how to let the IDE see this marketplace, for an item the IDE could not find after it was asked to
 * install it: the item is in no plugin repository the IDE reads until this marketplace is added as one, and
 * then it is installed from the IDE's Plugins settings (the IDE's install service reads only its main
 * marketplace, so the button alone may still not reach it).
 * "Copy" puts the address on the clipboard, or selects it where the page may not write to the clipboard.
 */
export function RepositoryHint({ ideName, repositoryUrl }: RepositoryHintProps) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const select = () => field.current?.select();
  const copy = () => {
    // Without the Clipboard API (plain-http pages, some frames) the selected text is one keystroke away.
    const writing = globalThis.navigator?.clipboard?.writeText(repositoryUrl);
    if (writing) writing.then(() => setCopied(true), select);
    else select();
  };
  return (
    <span className="mp-repository-hint" role="note">
      <span>
        Nothing in {ideName}? Add this marketplace in Settings | Plugins | ⚙ | Manage Plugin Repositories,
        then install it from there:
      </span>
      <input ref={field} readOnly value={repositoryUrl} aria-label="Plugin repository URL" onFocus={select} />
      <button type="button" className="mp-button mp-button--secondary" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
