// Argument and answer schemas of the Insights calls (answers for the OpenAPI document).
import { AllWisdomTestIds, FeedbackCommentsMaxLength, FeedbackContextMaxLength } from '../contract/insights.js';
import { targetIdArg, timeArg } from '../data/schemas.js';

export { targetIdArg, timeArg };
export const periodMinutesArg = { type: 'integer', minimum: 1, maximum: 31 * 24 * 60 } as const;
export const includeDetailsArg = { type: 'boolean' } as const;
/** testIds as a list, or comma-separated in one query value. */
export const testIdsArg = {
  anyOf: [
    { type: 'array', maxItems: 50, items: { type: 'integer', enum: [...AllWisdomTestIds] } },
    { type: 'string', maxLength: 200, pattern: '^[0-9, ]*$' },
  ],
} as const;

export const FeedbackBodySchema = {
  type: 'object',
  required: ['Rating'],
  additionalProperties: false,
  properties: {
    SessionId: { type: 'string', maxLength: 64, pattern: '^[0-9]*$' },
    Rating: { type: 'integer', minimum: 1, maximum: 6 },
    Comments: { type: 'string', maxLength: FeedbackCommentsMaxLength },
    HelpRequested: { type: 'boolean' },
    ContextJson: { type: 'string', maxLength: FeedbackContextMaxLength },
  },
} as const;

const str = { type: 'string' } as const;
const nnum = { type: ['number', 'null'] } as const;
const obj = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });
const TimeRange = obj({ Start: str, End: str });
const Stat = obj({ Key: str, Name: str, Value: { type: ['number', 'string', 'null'] }, Measure: str, Important: { type: 'boolean' } });

export const WisdomTimeRangeSchema = TimeRange;
export const FeedbackAnswerSchema = obj({ Id: { type: 'integer' } });

export const WisdomResultSchema = obj({
  TestedSegment: obj({ TimeRange, Stats: { type: 'array', items: Stat } }),
  Results: {
    type: 'array',
    items: obj({
      TestID: { type: 'integer' },
      TestTitle: str,
      TestCategory: { type: 'integer' },
      Title: str,
      Description: { type: 'array', items: str },
      ReadMoreUrl: str,
      Stats: { type: 'array', items: Stat },
      ResultEnum: { type: 'integer' },
      WisdomHosts: {
        type: 'array',
        items: obj({ Name: str, HopNumber: { type: 'integer' }, UniqueID: str, RedHerringPacketLoss: { type: 'boolean' }, RedHerringLatency: { type: 'boolean' }, PearsonScore: nnum, HostID: str }),
      },
      WisdomSegments: { type: 'array', items: { type: 'array', items: obj({ TimeRange, Stats: { type: 'array', items: obj({ Key: str, Value: nnum }) } }) } },
      HopDetails: {
        type: 'array',
        items: obj({
          HostId: str,
          HopNumber: { type: 'integer' },
          Name: str,
          Details: { type: 'array', items: Stat },
          WisdomCharts: { type: 'array', items: { type: 'object' } },
          BoxPlotChart: obj({ Title: str, Data: { type: 'array', items: { type: 'object' } } }),
        }),
      },
    }),
  },
});
