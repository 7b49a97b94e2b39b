import type { Credentials } from './credentials.ts';
import { depositKey } from './depositKey.ts';
import type { DepositRequest } from './depositRequest.ts';

/** A line error of a refused file, as the server reports it. */
export interface LineError {
  lineNumber: number;
  code: string;
  column?: string;
  value?: string;
  params?: Record<string, unknown>;
}

export interface KeptVersion {
  id: string;
  name: string;
  size: number;
}

export type DepositOutcome =
  | { kind: 'deposited'; fileId: string; rowCount?: number; publishing: boolean }
  /** The same file is a version already: deposited by an earlier run (the server replayed its answer) or not. */
  | { kind: 'already'; fileId: string }
  | { kind: 'refused'; status: number; code: string; params: Record<string, unknown>; errors: LineError[] };

/** The API of one Terrain server, as one signed-in user (a session token sent as `Authorization: Bearer`). */
export class TerrainApi {
  private constructor(
    private readonly api: string,
    private readonly token: string,
  ) {}

  /** Signs in; throws with the server's code when refused. */
  static async signIn(baseUrl: string, credentials: Credentials): Promise<TerrainApi> {
    const api = `${baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
    const response = await fetch(`${api}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    const token = response.headers.get('authorization')?.replace(/^Bearer /, '');
    if (!response.ok || !token) throw new Error(`sign-in refused: ${await errorCode(response)}`);
    return new TerrainApi(api, token);
  }

  /** Ends the session, so that the token stops working as soon as the run is over. */
  async signOut(): Promise<void> {
    await fetch(`${this.api}/logout`, { method: 'DELETE', headers: this.headers() }).catch(() => undefined);
  }

  /** The versions of a data type the user may open: their id, file name and size. */
  async versions(application: string, dataType: string): Promise<KeptVersion[]> {
    const response = await fetch(`${this.dataTypePath(application, 'filesOnRepository', dataType)}`, {
      headers: this.headers(),
    });
    if (!response.ok) throw new Error(`versions of ${dataType} refused: ${await errorCode(response)}`);
    return ((await response.json()) as KeptVersion[]).map(({ id, name, size }) => ({ id, name, size }));
  }

  /** A version's file, as it was deposited. */
  async versionContent(application: string, fileId: string): Promise<Uint8Array> {
    const response = await fetch(`${this.api}/applications/${encodeURIComponent(application)}/file/${fileId}`, {
      headers: this.headers(),
    });
    if (!response.ok) throw new Error(`version ${fileId} refused: ${await errorCode(response)}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  /** One version of a versioned data type: `params` then `file`, under a key made from both. */
  async deposit(request: DepositRequest): Promise<DepositOutcome> {
    const form = new FormData();
    form.append('params', request.params);
    form.append('file', new Blob([request.content as Uint8Array<ArrayBuffer>]), request.fileName);
    const response = await fetch(this.dataTypePath(request.application, 'data', request.dataType), {
      method: 'POST',
      headers: { ...this.headers(), 'idempotency-key': depositKey(request) },
      body: form,
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.ok) {
      const fileId = String(body.fileId);
      if (response.headers.get('idempotent-replayed') === 'true') return { kind: 'already', fileId };
      return {
        kind: 'deposited',
        fileId,
        rowCount: typeof body.rowCount === 'number' ? body.rowCount : undefined,
        publishing: response.status === 202,
      };
    }
    return {
      kind: 'refused',
      status: response.status,
      code: typeof body.code === 'string' ? body.code : `HTTP_${response.status}`,
      params: (body.params as Record<string, unknown> | undefined) ?? {},
      errors: Array.isArray(body.errors) ? (body.errors as LineError[]) : [],
    };
  }

  private dataTypePath(application: string, route: string, dataType: string) {
    return `${this.api}/applications/${encodeURIComponent(application)}/${route}/${encodeURIComponent(dataType)}`;
  }

  private headers() {
    return { authorization: `Bearer ${this.token}` };
  }
}

async function errorCode(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { code?: unknown };
  return typeof body.code === 'string' ? body.code : `HTTP ${response.status}`;
}
