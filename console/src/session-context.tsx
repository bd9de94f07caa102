import { useQuery } from '@tanstack/preact-query';
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Me, Workspace } from '@qa-platform/client';
import { api, currentAuth, onAuthChange, type Auth } from './api';

export interface Session {
  auth: Auth | null;
  me: Me | undefined;
  permissions: ReadonlySet<string>;
  workspaces: Workspace[];
  /** Whether the person holds a permission key in the active workspace (never a role name). */
  can: (key: string) => boolean;
  /** Whether the permission keys have been loaded (until then `can` answers false for every key). */
  permissionsKnown: boolean;
}

const Ctx = createContext<Session>({ auth: null, me: undefined, permissions: new Set(), workspaces: [], can: () => false, permissionsKnown: false });
export const useSession = () => useContext(Ctx);

export function useAuth(): Auth | null {
  const [auth, setAuth] = useState(currentAuth());
  useEffect(() => onAuthChange(setAuth), []);
  return auth;
}

export function SessionProvider({ children }: { children: preact.ComponentChildren }) {
  const auth = useAuth();
  const key = [auth?.userId, auth?.workspaceId];
  const me = useQuery({ queryKey: ['me', ...key], queryFn: () => api<Me>('/api/v1/users/me'), enabled: !!auth });
  const perms = useQuery({ queryKey: ['permissions', ...key], queryFn: () => api<string[]>('/api/v1/users/me/permissions'), enabled: !!auth });
  const workspaces = useQuery({ queryKey: ['workspaces-accessible', auth?.userId], queryFn: () => api<Workspace[]>('/api/v1/workspaces/accessible'), enabled: !!auth });
  const permissions = new Set(perms.data ?? []);
  const value: Session = { auth, me: me.data, permissions, workspaces: (workspaces.data ?? []).filter((w) => !w.archived), can: (k) => permissions.has(k), permissionsKnown: perms.isSuccess };
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}
