import type { ReactNode } from 'react';
import type { RunningIde } from '@marketplace/core';
import { GET_FROM_MARKETPLACE, installSuccessToast } from '@marketplace/core';
import type { DropdownMenuItem } from '../dropdown-menu/DropdownMenu';
import { DropdownMenu } from '../dropdown-menu/DropdownMenu';
import type { IdeBridge } from '../ide/ide-bridge';
import { useIdeBridge } from '../ide/ide-bridge';
import { describeInstallFailure } from '../ide/install-failure';
import { pluginRepositoryUrl } from '../ide/item-compatibility';
import { CONFIRM_IN_IDE, usePluginInstall } from '../ide/use-plugin-install';
import { useRunningIdes } from '../ide/use-running-ides';
import { RepositoryHint } from '../repository-hint/RepositoryHint';
import { useToasts } from '../toast/toast-context';
import { ToastProvider } from '../toast/ToastProvider';

export interface InstallButtonProps {
  /** The plugin's XML id, as the IDE knows it. */
  pluginXmlId: string;
  /** The plugin's page, offered when no IDE is running. */
  pluginUrl: string;
  /** Defaults to the bridge of `IdeBridgeContext`. */
  bridge?: IdeBridge;
  /** Called after the IDE accepted or refused the install. */
  onInstallResult?: (result: { ide: RunningIde; ok: boolean }) => void;
  /**
   * This marketplace's address (its API base): after an install into an IDE that does not know the plugin,
   * the button says how to add this marketplace to the IDE's plugin repositories.
   */
  marketplaceUrl?: string;
  /**
   * What to offer when no IDE runs, instead of the link to the item's page: on that page itself the link
   * would only open the same page again.
   */
  whenNoIde?: ReactNode;
}

/** Menu entries for the IDEs: one entry per IDE, entries that share a name grouped under it. */
export function ideMenuItems(
  ides: readonly RunningIde[],
  onSelect: (ide: RunningIde) => void,
): DropdownMenuItem[] {
  const countByName = new Map<string, number>();
  for (const ide of ides) countByName.set(ide.name, (countByName.get(ide.name) ?? 0) + 1);
  return ides.map((ide) => {
    const shared = (countByName.get(ide.name) ?? 0) > 1;
    return {
      id: `${ide.port}`,
      label: shared ? `${ide.buildNumber} (port ${ide.port})` : ide.name,
      group: shared ? ide.name : undefined,
      onSelect: () => onSelect(ide),
    };
  });
}

function InstallButtonContent({
  pluginXmlId,
  pluginUrl,
  bridge: bridgeProp,
  onInstallResult,
  marketplaceUrl,
  whenNoIde,
}: InstallButtonProps) {
  const bridge = useIdeBridge(bridgeProp);
  const toasts = useToasts();
  const { state, reset, lookNow } = useRunningIdes(bridge);
  const {
    installing,
    needsRepository,
    install: installInto,
  } = usePluginInstall(bridge, pluginXmlId, marketplaceUrl);

  const install = async (ide: RunningIde) => {
    try {
      await installInto(ide);
      toasts?.show({ kind: 'success', ...installSuccessToast(ide.name) });
      onInstallResult?.({ ide, ok: true });
    } catch (error) {
      const failure = describeInstallFailure(error, ide.name);
      toasts?.show({ kind: 'error', title: failure.title, message: failure.message });
      if (failure.ideMayBeGone) reset();
      onInstallResult?.({ ide, ok: false });
    }
  };

  if (state.status === 'pending' || state.status === 'awaiting-confirmation') {
    return (
      <span className="mp-install">
        <button type="button" className="mp-button" disabled aria-busy="true">
          <span className="mp-spinner" aria-hidden="true" />
          {state.status === 'pending' ? 'Install' : CONFIRM_IN_IDE}
        </button>
      </span>
    );
  }

  if (state.status === 'awaiting-gesture') {
    // The browser asks the visitor before the page may look for IDEs, so look only when they ask to install.
    const lookThenInstall = async () => {
      const [first, ...more] = await lookNow();
      if (first !== undefined && more.length === 0) await install(first);
    };
    return (
      <span className="mp-install">
        <button type="button" className="mp-button" onClick={() => void lookThenInstall()}>
          Install
        </button>
      </span>
    );
  }

  const [onlyIde, ...others] = state.ides;
  if (onlyIde === undefined) {
    if (whenNoIde !== undefined) return <span className="mp-install">{whenNoIde}</span>;
    return (
      <span className="mp-install">
        <a
          className="mp-button mp-button--secondary"
          href={pluginUrl}
          target="_blank"
          rel="noopener noreferrer"
        >
          {GET_FROM_MARKETPLACE}
        </a>
      </span>
    );
  }

  const busy = installing !== undefined;
  const spinner = busy ? <span className="mp-spinner" aria-hidden="true" /> : null;
  const hint =
    needsRepository && marketplaceUrl !== undefined ? (
      <RepositoryHint ideName={needsRepository.name} repositoryUrl={pluginRepositoryUrl(marketplaceUrl)} />
    ) : null;
  if (others.length === 0) {
    return (
      <span className="mp-install">
        <button
          type="button"
          className="mp-button"
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={() => void install(onlyIde)}
        >
          {spinner}
          {installing?.confirming ? CONFIRM_IN_IDE : `Install to ${onlyIde.name}`}
        </button>
        {hint}
      </span>
    );
  }

  return (
    <span className="mp-install">
      <DropdownMenu
        label="Choose an IDE"
        trigger={
          <>
            {spinner}
            {installing
              ? installing.confirming
                ? CONFIRM_IN_IDE
                : `Installing to ${installing.ide.name}`
              : 'Install to IDE'}
          </>
        }
        busy={busy}
        items={ideMenuItems(state.ides, (ide) => void install(ide))}
      />
      {hint}
    </span>
  );
}

/**
 * Installs the plugin into an IDE running on the visitor's machine: one button for one IDE, a menu for
 * several, a link to the plugin page for none. Says "Confirm in your IDE" while the IDE asks its user
 * whether to trust this page, and shows the outcome as a toast (its own toasts when no `ToastProvider` is
 * around it).
 */
export function InstallButton(props: InstallButtonProps) {
  const toasts = useToasts();
  if (toasts) return <InstallButtonContent {...props} />;
  return (
    <ToastProvider>
      <InstallButtonContent {...props} />
    </ToastProvider>
  );
}
