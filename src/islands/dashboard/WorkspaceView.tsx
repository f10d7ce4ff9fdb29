import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import { workspaceRole, type MemberItem, type WorkspaceRoleName } from '../../../contract/workspaces.ts';
import { $userId } from '../../stores/session.ts';
import {
  $currentWorkspace,
  $invites,
  $members,
  $openedInvite,
  $workspaceNotice,
  acceptInvite,
  inviteMember,
  loadInvites,
  openInvite,
  withdrawInvite,
  createWorkspace,
  loadMembers,
  removeMember,
  renameWorkspace,
  updateMember,
} from '../../stores/workspaces.ts';
import DateTime from './DateTime.tsx';
import { takeFromAddressBar } from '../../lib/address-bar-secrets.ts';

const ROLE_HELP: Record<WorkspaceRoleName, string> = {
  admin: 'members, roles, settings',
  member: 'upload, comment, rate',
  reviewer: 'read, comment, rate',
  viewer: 'read only',
};

/** One member's row: an admin changes roles and permissions and removes people; anyone may leave. */
function MemberRow({
  member,
  workspaceId,
  isAdmin,
  personal,
  onMessage,
}: {
  member: MemberItem;
  workspaceId: string;
  isAdmin: boolean;
  personal: boolean;
  onMessage: (message: string | undefined) => void;
}) {
  const me = useStore($userId);
  const self = member.user_id === me;
  const editable = isAdmin && !personal;
  return (
    <tr>
      <td>
        {member.name}
        {self ? ' (you)' : ''}
      </td>
      <td>{member.email}</td>
      <td>
        {editable ? (
          <select
            aria-label={`Role of ${member.name}`}
            value={member.role}
            onChange={async (event) =>
              onMessage(
                await updateMember(workspaceId, member.user_id, { role: event.target.value as WorkspaceRoleName }),
              )
            }
          >
            {workspaceRole.options.map((role) => (
              <option key={role} value={role}>
                {role} ({ROLE_HELP[role]})
              </option>
            ))}
          </select>
        ) : (
          member.role
        )}
      </td>
      <td>
        <input
          type="checkbox"
          aria-label={`dataset.write for ${member.name}`}
          checked={member.permissions.includes('dataset.write')}
          disabled={!editable}
          onChange={async (event) =>
            onMessage(
              await updateMember(workspaceId, member.user_id, {
                permissions: event.target.checked ? ['dataset.write'] : [],
              }),
            )
          }
        />
      </td>
      <td>
        {!personal && (self || isAdmin) ? (
          <button
            type="button"
            className="dash-quiet"
            onClick={async () => onMessage(await removeMember(workspaceId, member.user_id, self))}
          >
            {self ? 'Leave' : `Remove ${member.name}`}
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** An admin's form to rename a team workspace; remade (by its key) whenever the name changes. */
function RenameForm({ id, name, onMessage }: { id: string; name: string; onMessage: (m: string | undefined) => void }) {
  const [rename, setRename] = useState(name);
  const onRename = async (event: SubmitEvent) => {
    event.preventDefault();
    onMessage(await renameWorkspace(id, rename));
  };
  return (
    <form className="dash-form" onSubmit={onRename}>
      <div className="dash-field">
        <label htmlFor="workspace-rename">Workspace name</label>
        <input id="workspace-rename" value={rename} maxLength={100} onChange={(e) => setRename(e.target.value)} />
      </div>
      <button type="submit" disabled={!rename.trim() || rename.trim() === name}>
        Rename
      </button>
    </form>
  );
}

/** The invitation of a link opened here (`?invite=`): what it is for, and a button to join. */
function OpenedInvitePanel({ onMessage }: { onMessage: (m: string | undefined) => void }) {
  const opened = useStore($openedInvite);
  useEffect(() => {
    const token = takeFromAddressBar(['invite']).get('invite');
    if (token) void openInvite(token);
  }, []);
  if (opened.status === 'none') return null;
  return (
    <section aria-labelledby="invite-title" className="dash-card dash-invite">
      <h2 id="invite-title">Invitation</h2>
      {opened.status === 'loading' ? <p role="status">Reading the invitation...</p> : null}
      {opened.status === 'failed' ? <p className="dash-error">{opened.message}</p> : null}
      {opened.status === 'ready' ? (
        <>
          <p>
            {opened.invite.invited_by ?? 'An admin'} invited {opened.invite.email} to{' '}
            <strong>{opened.invite.workspace_name}</strong> as {opened.invite.role}.
          </p>
          <button
            type="button"
            className="dash-primary"
            onClick={async () => onMessage(await acceptInvite(opened.token))}
          >
            Join {opened.invite.workspace_name}
          </button>
        </>
      ) : null}
    </section>
  );
}

/** An admin's invitations: a form to invite by e-mail and the list of those not yet used. */
function Invitations({ workspaceId, onMessage }: { workspaceId: string; onMessage: (m: string | undefined) => void }) {
  const invites = useStore($invites);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRoleName>('member');
  const [sent, setSent] = useState('');
  useEffect(() => void loadInvites(workspaceId), [workspaceId]);
  const onInvite = async (event: SubmitEvent) => {
    event.preventDefault();
    const error = await inviteMember(workspaceId, email, role);
    onMessage(error);
    setSent(error ? '' : `Invitation sent to ${email.trim()}.`);
    if (!error) setEmail('');
  };
  return (
    <>
      <h2>Invite by e-mail</h2>
      <form className="dash-form" onSubmit={onInvite}>
        <div className="dash-field">
          <label htmlFor="invite-email">E-mail address</label>
          <input id="invite-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="dash-field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as WorkspaceRoleName)}>
            {workspaceRole.options.map((r) => (
              <option key={r} value={r}>
                {r} ({ROLE_HELP[r]})
              </option>
            ))}
          </select>
        </div>
        <div className="dash-form-actions">
          <button type="submit" className="dash-primary" disabled={!email.trim()}>
            Send invitation
          </button>
          <span role="status" className="dash-ok">
            {sent}
          </span>
        </div>
      </form>
      {invites.length > 0 ? (
        <>
          <h3>Pending invitations</h3>
          <ul className="dash-activity">
            {invites.map((invite) => (
              <li key={invite.id}>
                <span>
                  {invite.email} as {invite.role}, until <DateTime at={invite.expires_at} dateOnly />
                </span>
                <button
                  type="button"
                  className="dash-quiet"
                  onClick={async () => onMessage(await withdrawInvite(workspaceId, invite.id))}
                >
                  Withdraw <span className="visually-hidden">the invitation of {invite.email}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

/** /dashboard/workspace: the current workspace's name and members, and a form to create a team workspace. */
export default function WorkspaceView() {
  const current = useStore($currentWorkspace);
  const members = useStore($members);
  const [message, setMessage] = useState<string | undefined>();
  const [newName, setNewName] = useState('');
  const notice = useStore($workspaceNotice);
  const currentId = current?.id;

  useEffect(() => {
    if (currentId) void loadMembers(currentId);
  }, [currentId]);

  const isAdmin = current?.role === 'admin';
  const onCreate = async (event: SubmitEvent) => {
    event.preventDefault();
    const error = await createWorkspace(newName);
    setMessage(error);
    if (!error) setNewName('');
  };

  return (
    <section aria-labelledby="workspace-title" className="dash-section">
      <h1 id="workspace-title">Workspace</h1>
      <OpenedInvitePanel onMessage={setMessage} />
      {current ? (
        <>
          <p>
            You are working in <strong>{current.name}</strong> as <strong>{current.role}</strong>
            {current.personal ? ': your personal workspace, which only you can see.' : '.'}
          </p>
          {isAdmin ? (
            <p>
              <a href="/dashboard/audit">See the audit log</a> of {current.name}.
            </p>
          ) : null}
          {isAdmin && !current.personal ? (
            <RenameForm key={current.id + current.name} id={current.id} name={current.name} onMessage={setMessage} />
          ) : null}
          <h2>Members</h2>
          {members.status === 'failed' ? <p className="dash-error">{members.message}</p> : null}
          {members.status === 'ready' ? (
            <table className="dash-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">dataset.write</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.items.map((member) => (
                  <MemberRow
                    key={member.user_id}
                    member={member}
                    workspaceId={current.id}
                    isAdmin={isAdmin}
                    personal={current.personal}
                    onMessage={setMessage}
                  />
                ))}
              </tbody>
            </table>
          ) : null}
          {isAdmin && !current.personal ? <Invitations workspaceId={current.id} onMessage={setMessage} /> : null}
        </>
      ) : (
        <p role="status">Loading workspace...</p>
      )}
      <p role="alert" className="dash-error">
        {message ?? ''}
      </p>
      <h2>Create a team workspace</h2>
      <form className="dash-form" onSubmit={onCreate}>
        <div className="dash-field">
          <label htmlFor="workspace-new">Name</label>
          <input id="workspace-new" value={newName} maxLength={100} onChange={(e) => setNewName(e.target.value)} />
        </div>
        <div className="dash-form-actions">
          <button type="submit" className="dash-primary" disabled={!newName.trim()}>
            Create workspace
          </button>
          <span role="status" className="dash-ok">
            {notice}
          </span>
        </div>
      </form>
    </section>
  );
}
