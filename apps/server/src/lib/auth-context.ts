/** The signed-in caller, attached to the request by the auth plugin. */
export interface AuthUser {
  id: number;
  companyId: number;
  username: string;
  isCompanyAdmin: boolean;
  tokenId: number;
}
