import { isApiError, type Plugin } from '@marketplace/api-client';
import {
  createMessage,
  parentOrigin,
  sendMessage,
  toEmbedItemData,
  type WidgetMessage,
} from '@marketplace/protocol';
import {
  AiButton,
  cardItemFromPlugin,
  CourseLtiButton,
  IdeBridgeContext,
  InstallButton,
  OpenCourseButton,
  PluginCard,
  ThemeCard,
  ToastProvider,
  useContentSize,
} from '@marketplace/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { pageIdeBridge } from '../../lib/ide-bridge';
import { aiEmbedOptions, embedPluginId, isEmbedType, type EmbedType } from './embed-params';

/** Posts to the page that frames this one, only to its origin; nothing when not framed or the origin is unknown. */
function postToParent(message: WidgetMessage): void {
  if (window.parent === window) return;
  const origin = parentOrigin({ referrer: document.referrer, location: window.location });
  if (origin === undefined) return;
  sendMessage(window.parent, message, origin);
}

function EmbedContent({ type, plugin, query }: { type: EmbedType; plugin: Plugin; query: URLSearchParams }) {
  const pluginUrl = new URL(plugin.info.link, location.origin).toString();
  const language = plugin.programmingLanguage ?? plugin.language ?? '';
  switch (type) {
    case 'ai': {
      const options = aiEmbedOptions(query);
      return (
        <AiButton
          pluginXmlId={plugin.info.xmlId}
          pluginUrl={pluginUrl}
          marketplaceUrl={location.origin}
          {...options}
          onMessage={postToParent}
        />
      );
    }
    case 'install':
      return (
        <InstallButton
          pluginXmlId={plugin.info.xmlId}
          pluginUrl={pluginUrl}
          marketplaceUrl={location.origin}
        />
      );
    case 'card': {
      // The item record carries the update date and the 30-day chart: the card needs no other request.
      const item = cardItemFromPlugin(plugin);
      return item.isTheme ? (
        <ThemeCard item={item} imageUrl={plugin.screenshots[0]?.url} baseUrl={location.origin} newWindow />
      ) : (
        <PluginCard item={item} baseUrl={location.origin} newWindow />
      );
    }
    case 'open-course':
      return <OpenCourseButton courseId={plugin.id} language={language} />;
    case 'course-lti': {
      const launchId = query.get('launchId') ?? undefined;
      const studyItemId = query.get('studyItemId') ?? undefined;
      const lmsDescription = query.get('lmsDescription') ?? undefined;
      return (
        <CourseLtiButton
          language={language}
          launch={{
            marketplaceCourseId: plugin.id,
            ...(launchId ? { launchId } : {}),
            ...(studyItemId ? { studyItemId } : {}),
            ...(lmsDescription ? { lmsDescription } : {}),
          }}
        />
      );
    }
    default:
      return type satisfies never;
  }
}

/**
 * /embeddable/{type}/{pluginId} (spec §2): a transparent page for a frame. Nothing renders until the item has
 * loaded, nor when it fails to load; once loaded, the item's data goes to the parent window, and when it
 * cannot load (or the address names no item or type), an `embed:error` message says why.
 */
export default function EmbedPage() {
  const { type, pluginId: pluginSegment } = useParams();
  const [query] = useSearchParams();
  const [plugin, setPlugin] = useState<Plugin | undefined>(undefined);
  const contentRef = useRef<HTMLDivElement>(null);
  const pluginId = embedPluginId(pluginSegment);

  useEffect(() => {
    document.documentElement.classList.add('embed');
    const segment = pluginSegment ?? '';
    if (!isEmbedType(type) || pluginId === undefined) {
      const message = isEmbedType(type)
        ? `There is no item ${segment}.`
        : `There is no embed type ${type ?? ''}.`;
      postToParent(createMessage('embed:error', { pluginId: segment, status: 404, message }));
      return;
    }
    const controller = new AbortController();
    api.getPlugin(pluginId, {}, { signal: controller.signal }).then(
      (loaded) => {
        setPlugin(loaded);
        postToParent(
          createMessage('embed:item-data', { item: toEmbedItemData(loaded, loaded.rating.meanRating) }),
        );
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('The embedded item could not be loaded', error);
        // Nothing renders (spec §2); the host hears why, worded by spec §8's rule (no body of a 5xx).
        postToParent(
          createMessage('embed:error', {
            pluginId: segment,
            status: isApiError(error) ? error.status : 0,
            message: errorText(error),
          }),
        );
      },
    );
    return () => controller.abort();
  }, [type, pluginId, pluginSegment]);

  const onSize = useCallback(
    (size: { width: number; height: number }) => {
      // The AI button reports its own size in its own messages.
      if (type !== 'ai') postToParent(createMessage('embed:size', size));
    },
    [type],
  );
  useContentSize(contentRef, onSize);

  return (
    <IdeBridgeContext.Provider value={pageIdeBridge()}>
      <ToastProvider>
        <div ref={contentRef} className={`mp-root embed-content embed-content--${type ?? ''}`}>
          {plugin && isEmbedType(type) ? <EmbedContent type={type} plugin={plugin} query={query} /> : null}
        </div>
      </ToastProvider>
    </IdeBridgeContext.Provider>
  );
}
