/**
 * Data of the deposit benchmark and of the fault tests: an application with a site reference, a large reference of
 * measures (the columns and generator of csv.bench.ts) and a versioned data type of sensor readings per site and
 * period, deposited as one file per site and year.
 */
import { MEASURES_CONFIGURATION, generateMeasures } from './csv.bench.ts';

export { generateMeasures };

/** The measures application of csv.bench.ts under another name, with the versioned readings. */
export const VERSIONED_YAML = `${MEASURES_CONFIGURATION.replace('OA_name: bench,', 'OA_name: stations,')}  readings:
    OA_tags: [__DATA__]
    OA_naturalKey: [site, sensor, day, hour]
    OA_basicComponents:
      site: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}}
      sensor: {OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: "s[0-9]{3}"}}}
      day: {OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}}
      hour: {OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: "HH:mm"}}}
      value: {OA_checker: {OA_name: OA_float}}
      quality: {OA_checker: {OA_name: OA_integer}}
    OA_authorizations:
      OA_authorizationScope: [site]
      OA_timeScope: day
    OA_submission:
      OA_strategy: OA_VERSIONING
      OA_submissionScope:
        OA_referenceScopes:
          - OA_reference: sites
            OA_component: site
        OA_timeScope:
          OA_component: day
`;

export const APPLICATION = 'stations';
export const SITES = 200;

const pad = (value: number, width: number) => String(value).padStart(width, '0');
export const siteCode = (site: number) => `site_${pad(site, 3)}`;

export function sitesCsv(): string {
  return (
    ['code;name', ...Array.from({ length: SITES }, (_, site) => `${siteCode(site)};Site ${site}`)].join('\n') + '\n'
  );
}

/**
 * About `rows` hourly readings of one site during `year`: sensors × days × 24 hours, every key distinct, values
 * deterministic. The real count (a whole number of sensor-days) is returned with the text.
 */
export function readingsCsv(rows: number, site: number, year: number): { text: string; rows: number } {
  const days = year % 4 === 0 ? 366 : 365;
  const sensors = Math.max(1, Math.ceil(rows / (days * 24)));
  const lines = ['site;sensor;day;hour;value;quality'];
  let count = 0;
  const start = Date.UTC(year, 0, 1);
  outer: for (let day = 0; day < days; day += 1) {
    const date = new Date(start + day * 86_400_000);
    const text = `${pad(date.getUTCDate(), 2)}/${pad(date.getUTCMonth() + 1, 2)}/${year}`;
    for (let sensor = 0; sensor < sensors; sensor += 1) {
      for (let hour = 0; hour < 24; hour += 1) {
        if (count >= rows) break outer;
        lines.push(
          `${siteCode(site)};s${pad(sensor, 3)};${text};${pad(hour, 2)}:00;${((day * 31 + sensor * 7 + hour) % 1000) / 10};${(day + hour) % 4}`,
        );
        count += 1;
      }
    }
  }
  return { text: `${lines.join('\n')}\n`, rows: count };
}

/** The deposit parameters of a site's year (the params part of the deposit form). */
export function yearDataset(site: number, year: number) {
  return {
    binaryfiledataset: {
      datatype: 'readings',
      requiredAuthorizations: { site: siteCode(site) },
      from: `${year}-01-01 00:00:00`,
      to: `${year}-12-31 23:59:59`,
      comment: `readings ${year}`,
    },
  };
}
