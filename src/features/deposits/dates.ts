import type { I18n } from '@lingui/core';
import type { PeriodGroup } from './periods';

/** A day as the deposit screens show it; nothing for a date not set. */
export const mediumDate = (i18n: I18n, iso: string | null) =>
  iso ? i18n.date(new Date(iso), { dateStyle: 'medium' }) : '';

/** A period's dates, "from – to"; null for versions that cover the whole data (no time scope). */
export const periodDates = (i18n: I18n, group: Pick<PeriodGroup, 'from' | 'to'>) =>
  group.from ? `${mediumDate(i18n, group.from)} – ${mediumDate(i18n, group.to)}` : null;
