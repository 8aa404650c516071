/** The signed-in caller, attached to the request by the auth plugin. */
export interface AuthUser {
  id: number;
  companyId: number;
  username: string;
  isCompanyAdmin: boolean;
  /** The session's `auth_tokens` id; 0 when the caller came with a personal API token (`apiTokenId`) or is a job. */
  tokenId: number;
  /** Set when the caller came with a personal API token (issue 32): read-only, GET and HEAD requests only. */
  apiTokenId?: number;
}
