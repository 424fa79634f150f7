import { Type, type Static } from 'typebox';

const BuildText = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The IDE build number, e.g. IU-241.14494.240',
});
const XmlIds = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000 });

/** POST /api/search/updates/compatible (and the older /api/search/compatibleUpdates). */
export const CompatibleUpdatesBody = Type.Object({
  build: BuildText,
  pluginXMLIds: XmlIds,
  channel: Type.String({ maxLength: 100, default: '' }),
});
export type CompatibleUpdatesBody = Static<typeof CompatibleUpdatesBody>;

export const CompatibleUpdateSchema = Type.Object({
  id: Type.Integer({ description: 'The version (update) id' }),
  pluginId: Type.Integer(),
  pluginXmlId: Type.String(),
  version: Type.String(),
});
export const CompatibleUpdatesResult = Type.Array(CompatibleUpdateSchema);
export type CompatibleUpdatesResult = Static<typeof CompatibleUpdatesResult>;

export const NearestUpdatesQuery = Type.Object({
  build: BuildText,
  pluginXMLIds: XmlIds,
  channel: Type.String({ maxLength: 100, default: '' }),
});
/** core's UpdateInfo, with the plugin's number. */
export const NearestUpdateSchema = Type.Object({
  xmlId: Type.String(),
  id: Type.Integer({ description: 'The version (update) id' }),
  pluginId: Type.Integer(),
  version: Type.String(),
});
export const NearestUpdatesResult = Type.Record(Type.String(), NearestUpdateSchema, {
  description: 'xmlId -> the newest version compatible with the build',
});

export const PluginsListQuery = Type.Object({
  build: BuildText,
  channel: Type.String({ maxLength: 100, default: '' }),
  pluginId: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000 })),
});
export const ChannelParams = Type.Object({ channel: Type.String({ maxLength: 100 }) });

export const DownloadQuery = Type.Object({
  updateId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  pluginId: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'xmlId, with version' })),
  version: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  channel: Type.String({ maxLength: 100, default: '' }),
  rel: Type.Optional(Type.Boolean()),
});

/**
 * GET /pluginManager: `action=download` from old tooling; the IDE's own download URL (idea.plugins.host mode)
 * has no action and adds `uuid` and `updatedFrom`, which are read and ignored.
 */
export const PluginManagerQuery = Type.Object({
  action: Type.Optional(Type.Enum(['download'])),
  id: Type.String({ minLength: 1, maxLength: 255, description: 'xmlId' }),
  build: BuildText,
  channel: Type.String({ maxLength: 100, default: '' }),
});
