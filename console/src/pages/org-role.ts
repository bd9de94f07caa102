/** A role as `GET /api/v1/roles` lists it: the organization pages edit it, a workspace's members are given one. */
export interface Role {
  id: number;
  name: string;
  description: string;
  permissions: string[];
  builtIn?: boolean;
}
