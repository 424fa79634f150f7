import { Type, type Static } from 'typebox';
import { Timestamp } from './common';

/**
 * What a successful upload answers (POST /api/updates/upload, /plugin/uploadPlugin and
 * /api/plugins/{family}/upload): the version as stored. A refused upload answers core's UploadResult instead.
 */
export const UploadedVersionSchema = Type.Object({
  id: Type.Integer({ description: 'The version (update) id' }),
  pluginId: Type.Integer(),
  version: Type.String(),
  cdate: Timestamp,
  downloadUrl: Type.String(),
  notes: Type.String({ description: 'HTML change notes' }),
  since: Type.String(),
  until: Type.String({ description: "'' when there is no until-build" }),
  /** '' is the stable channel. */
  channel: Type.String(),
  size: Type.Integer(),
  downloads: Type.Integer(),
  hidden: Type.Boolean(),
  warnings: Type.Array(Type.String(), {
    description: 'What the inspection found worth telling but not worth refusing',
  }),
});
export type UploadedVersionBody = Static<typeof UploadedVersionSchema>;
