import type { RunningIde } from '@marketplace/core';
import { AI_BUTTON_DEFAULT_TEXT, RUNNING_IDE_POLL_INTERVAL_MS } from '@marketplace/core';
import type { WidgetMessage } from '@marketplace/protocol';
import { createMessage } from '@marketplace/protocol';
import { useEffect, useRef } from 'react';
import type { IdeBridge } from '../ide/ide-bridge';
import { useIdeBridge } from '../ide/ide-bridge';
import { useContentSize } from '../embed/use-content-size';
import { describeInstallFailure } from '../ide/install-failure';
import { pluginRepositoryUrl } from '../ide/item-compatibility';
import { CONFIRM_IN_IDE, usePluginInstall } from '../ide/use-plugin-install';
import { useRunningIdes } from '../ide/use-running-ides';
import { RepositoryHint } from '../repository-hint/RepositoryHint';

export const AI_BUTTON_SIZES = ['xs', 's', 'm', 'l'] as const;
export type AiButtonSize = (typeof AI_BUTTON_SIZES)[number];

export interface AiButtonProps {
  /** The AI assistant plugin's XML id. */
  pluginXmlId: string;
  /** The plugin's page on the plugins site, opened when no compatible IDE is running. */
  pluginUrl: string;
  buttonSize?: AiButtonSize;
  buttonText?: string;
  /** Let a long text wrap onto several lines instead of staying on one. */
  allowMultiline?: boolean;
  /** Tracking parameters added to the plugins-site link. */
  trackingSource?: string;
  trackingMedium?: string;
  trackingContent?: string;
  bridge?: IdeBridge;
  /**
   * This marketplace's address (its API base). An IDE that does not know the plugin (it is only here) says
   * it is not compatible: the marketplace's own rule decides then, and after the install the button says how
   * to add this marketplace to the IDE's plugin repositories.
   */
  marketplaceUrl?: string;
  /** Receives the protocol messages for the host page (mounted, size, running IDEs, install results, link clicks). */
  onMessage?: (message: WidgetMessage) => void;
}

/** The plugins-site link with the tracking parameters. */
export function trackedPluginUrl(
  pluginUrl: string,
  tracking: { source: string; medium: string; content: string },
) {
  const url = new URL(pluginUrl);
  url.searchParams.set('source', tracking.source);
  url.searchParams.set('medium', tracking.medium);
  url.searchParams.set('content', tracking.content);
  return url.toString();
}

/**
 * Gets an AI assistant plugin into the visitor's IDE: installs into the first compatible running IDE, or,
 * while none runs, links to the plugin's page. Looks for IDEs again every 10 seconds. Says "Confirm in
 * your IDE" while the IDE asks its user whether to trust this page.
 */
export function AiButton({
  pluginXmlId,
  pluginUrl,
  buttonSize = 'm',
  buttonText = AI_BUTTON_DEFAULT_TEXT,
  allowMultiline = true,
  trackingSource = 'embed',
  trackingMedium = 'ai-button',
  trackingContent,
  bridge: bridgeProp,
  marketplaceUrl,
  onMessage,
}: AiButtonProps) {
  const bridge = useIdeBridge(bridgeProp);
  const onMessageRef = useRef(onMessage);
  onMessageRef.current = onMessage;
  const post = (message: WidgetMessage) => onMessageRef.current?.(message);
  const { state, reset } = useRunningIdes(bridge, {
    pluginXmlId,
    marketplaceUrl,
    pollIntervalMs: RUNNING_IDE_POLL_INTERVAL_MS,
    onIdes: (ides) => post(createMessage('ai-button:running-ides', { ides: [...ides] })),
  });
  const {
    installing,
    needsRepository,
    install: installInto,
  } = usePluginInstall(bridge, pluginXmlId, marketplaceUrl);
  const rootRef = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    onMessageRef.current?.(createMessage('ai-button:mounted'));
  }, []);
  useContentSize(rootRef, (size) => post(createMessage('ai-button:size', size)));

  const install = async (ide: RunningIde) => {
    try {
      await installInto(ide);
      post(createMessage('ai-button:install-success', { ide }));
    } catch (error) {
      const failure = describeInstallFailure(error, ide.name);
      post(createMessage('ai-button:install-error', { ide, message: failure.message }));
      // The spec clears the IDE list after an install error; an IDE that refused is still there, though.
      if (failure.ideMayBeGone) reset();
    }
  };

  const classes = [
    'mp-ai-button',
    `mp-ai-button--${buttonSize}`,
    allowMultiline ? 'mp-ai-button--multiline' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const firstIde = state.ides[0];
  const busy = installing !== undefined;

  return (
    <span className={classes} ref={rootRef}>
      {state.status === 'awaiting-confirmation' ? (
        <button type="button" className="mp-button" disabled aria-busy="true">
          <span className="mp-spinner" aria-hidden="true" />
          {CONFIRM_IN_IDE}
        </button>
      ) : firstIde === undefined ? (
        <a
          className="mp-button"
          href={trackedPluginUrl(pluginUrl, {
            source: trackingSource,
            medium: trackingMedium,
            content: trackingContent ?? buttonText,
          })}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(event) =>
            post(createMessage('ai-button:plugins-site-link-click', { url: event.currentTarget.href }))
          }
        >
          {buttonText}
        </a>
      ) : (
        <button
          type="button"
          className="mp-button"
          aria-busy={busy || undefined}
          disabled={busy}
          title={`Install to ${firstIde.name}`}
          onClick={() => void install(firstIde)}
        >
          {busy ? <span className="mp-spinner" aria-hidden="true" /> : null}
          {installing?.confirming ? CONFIRM_IN_IDE : buttonText}
        </button>
      )}
      {needsRepository && marketplaceUrl !== undefined ? (
        <RepositoryHint ideName={needsRepository.name} repositoryUrl={pluginRepositoryUrl(marketplaceUrl)} />
      ) : null}
    </span>
  );
}
