// Web user DTOs of spec 1 section 3.

export interface WebUser {
  Id: number;
  Name: string;
  EmailAddress: string;
  /** Claim storage strings. */
  Roles: string[];
  IsRoot: boolean;
}

export interface RoleClaim {
  DisplayString: string;
  StorageString: string;
}
