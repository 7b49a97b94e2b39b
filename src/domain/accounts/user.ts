/** The account as the API returns it (never with its password hash). Shared by the server and the UI. */
export type AccountState = 'idle' | 'active' | 'pending' | 'closed';

export interface CurrentUserRoles {
  /** Application id → roles the user holds on it (applicationManager, userManager). */
  applicationRoles: Record<string, string[]>;
  userId: string;
  userLogin: string;
  isTerrainAdmin: boolean;
  isApplicationCreator: boolean;
  memberOf: string[];
  isDataBaseSuper: boolean;
}

/** Answer of the sign-in call, also kept by the browser as `authenticatedUser`. */
export interface AuthenticatedUser {
  id: string;
  login: string;
  email: string;
  state: AccountState;
  authorizedForApplicationCreation: boolean;
  terrainAdmin: boolean;
  /** Application-name patterns (regular expressions) the user may create or update. */
  authorizations: string[];
  /** Application id → ISO time of the user's charter acceptance. */
  chartes: Record<string, string>;
  currentUserRoles: CurrentUserRoles;
}

/** The stored user as the profile shows it. */
export interface StoredUser {
  id: string;
  login: string;
  email: string;
  accountstate: AccountState;
  pendingEmail: string | null;
  terrainAdmin: boolean;
  authorizations: string[];
  chartes: Record<string, string>;
  creationDate: string;
  updateDate: string;
}

/** Only `active` counts as active; any unknown state reads as `idle`. */
export function readAccountState(value: unknown): AccountState {
  return value === 'active' || value === 'pending' || value === 'closed' ? value : 'idle';
}
