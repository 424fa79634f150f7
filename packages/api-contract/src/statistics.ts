import { Type, type Static } from 'typebox';
import { DateText } from './common';

export const DownloadsPerDayQuery = Type.Object({
  plugin: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Plugin id' }),
  startDate: DateText,
  endDate: DateText,
  fill: Type.Optional(
    Type.Enum(['full'], { description: '"full": days without downloads are listed with 0' }),
  ),
});
export type DownloadsPerDayQuery = Static<typeof DownloadsPerDayQuery>;

export const DownloadStatisticPointSchema = Type.Object({
  name: Type.String({ description: 'The day, yyyy-MM-dd' }),
  value: Type.Integer(),
});

export const DownloadsPerDayResult = Type.Object({
  measure: Type.Enum(['downloads-count']),
  dimension: Type.Enum(['day']),
  data: Type.Array(DownloadStatisticPointSchema),
});
export type DownloadsPerDayResult = Static<typeof DownloadsPerDayResult>;
