import type { ApplicationModel, LocaleText } from '../configuration/model';
import type { ApplicationOutline } from './outline';

/** Parts of an application a caller may ask for (`filter`), as the original API names them. */
export const APPLICATION_PARTS = [
  'ALL',
  'DATA',
  'CONFIGURATION',
  'SYNTHESIS',
  'ADDITIONALFILE',
  'RIGHTSREQUEST',
  'DATATYPE',
  'REFERENCETYPE',
] as const;
export type ApplicationPart = (typeof APPLICATION_PARTS)[number];

export type ApplicationRole = 'applicationManager' | 'userManager';

export interface ApplicationUserRoles {
  applicationRoles: ApplicationRole[];
  userId: string;
  userLogin: string;
  isTerrainAdmin: boolean;
  /** The user may create or update this application (a creator pattern matches its name). */
  isApplicationCreator: boolean;
  memberOf: string[];
  isDataBaseSuper: boolean;
}

/** One application as the list and the home page see it, for one user. */
export interface ApplicationView {
  id: string;
  name: string;
  version: string;
  comment: string;
  /** ISO date-times; the update date equals the creation date until the first update. */
  creationDate: string;
  updateDate: string;
  title: LocaleText;
  description: LocaleText;
  defaultLanguage: string;
  references?: string[];
  dataTypes?: string[];
  additionalFiles?: string[];
  hasRightsRequest?: boolean;
  /** The whole model, when the CONFIGURATION part is asked for by someone who may read the data (`mayReadData`). */
  configuration?: ApplicationModel;
  /** In its place for anyone else: what a rights request needs. */
  outline?: ApplicationOutline;
  /** Versions stored, newest first (home page only). */
  versions?: Array<{ version: string; uploadedAt: string; comment: string }>;
  currentApplicationUserRolesResult: ApplicationUserRoles;
  /** The user accepted some version of the charter. */
  hasSignedCharte: boolean;
  /** The user accepted the current charter, or the application has none. */
  hasSignedLastCharte: boolean;
  /** The application has a usage charter. */
  hasCharter: boolean;
  /** When the current charter was uploaded (ISO), when there is one. */
  charterUploadedAt?: string;
  /** The user must accept the charter before reaching the data (never managers nor user managers). */
  mustSignCharter: boolean;
  /** The application is among "my applications": the user holds a role on it or created it. */
  isMember: boolean;
  /** The user may update the application, download its configuration and manage it. */
  isAdministrator: boolean;
  /** Rows stored per data entry the user may read whole (with the REFERENCETYPE or DATATYPE parts). */
  lineCounts?: Record<string, number>;
  /** Write version of each entry the user may read rows of; a kept copy older than it is downloaded again. */
  entryVersions?: Record<string, number>;
  canReadReference: boolean;
  canWriteReference: boolean;
  canReadDatatype: boolean;
  canWriteDatatype: boolean;
}

/** Managers and user managers open the data-rights screens of an application. */
export const managesRights = (view: Pick<ApplicationView, 'isAdministrator' | 'currentApplicationUserRolesResult'>) =>
  view.isAdministrator || view.currentApplicationUserRolesResult.applicationRoles.includes('userManager');
