import type { WorkspaceRole } from '../../../server/modules/workspaces/workspace-roles.ts';
import type { TestApp } from './test-app.ts';
import { createSignedInUser, type TestUser } from './users.ts';

/** The roles of a team workspace, strongest first. */
export const TEAM_ROLES = ['admin', 'member', 'reviewer', 'viewer'] as const satisfies readonly WorkspaceRole[];

/** Someone of the team by role, or the outsider who belongs to another workspace only. */
export type TeamPerson = (typeof TEAM_ROLES)[number] | 'outsider';

/** Display names unless a test gives its own: a mention or a list can name each person plainly. */
const DEFAULT_NAMES: Record<TeamPerson, string> = {
  admin: 'Ada Admin',
  member: 'Max Member',
  reviewer: 'Rita Reviewer',
  viewer: 'Vic Viewer',
  outsider: 'Otto Outsider',
};

/** A team workspace with one signed-in user per role, and an outsider who is not a member. */
export interface TeamWorkspace {
  id: string;
  people: Record<TeamPerson, TestUser>;
}

/**
 * Makes a team workspace as its admin does (POST /workspaces, which must answer 201), then adds one member per other
 * role. `names` replaces some of the display names (a test of CSV quoting needs its own).
 */
export async function createTeamWorkspace(
  t: TestApp,
  options: { name?: string; names?: Partial<Record<TeamPerson, string>> } = {},
): Promise<TeamWorkspace> {
  const people = {} as Record<TeamPerson, TestUser>;
  const named = (who: TeamPerson) => ({ name: options.names?.[who] ?? DEFAULT_NAMES[who] });
  people.admin = await createSignedInUser(t, named('admin'));
  people.outsider = await createSignedInUser(t, named('outsider'));
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/workspaces',
    headers: people.admin.auth,
    payload: { name: options.name ?? 'Neuro QC' },
  });
  if (created.statusCode !== 201) throw new Error(`POST /workspaces: ${created.statusCode} ${created.body}`);
  const id = created.json<{ id: string }>().id;
  for (const role of TEAM_ROLES.slice(1)) {
    people[role] = await createSignedInUser(t, named(role));
    await t.app.workspaces.addMember(id, people[role].id, role, t.clock.now());
  }
  return { id, people };
}
