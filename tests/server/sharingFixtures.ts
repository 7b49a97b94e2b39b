/**
 * What the sharing tests (a large write under way while other users are served) have in common: another
 * application whose pages the other users ask for, and the percentile they are judged by.
 */
export const OTHER_APPLICATION = `OA_version: 2.0.1
OA_application: {OA_name: other, OA_version: 1.0.0}
OA_data:
  places:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
`;

export const OTHER_PLACES_CSV = 'code\na\nb\nc\n';

export const p95 = (times: number[]) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * 0.95))];
