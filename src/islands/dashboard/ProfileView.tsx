import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { profileLimits } from '../../../contract/profile.ts';
import {
  $profile,
  cancelEditing,
  editProfileField,
  loadProfile,
  saveProfile,
  startEditing,
  type ProfileForm,
} from '../../stores/profile.ts';

const fields: { key: keyof ProfileForm; label: string; max?: number; multiline?: boolean; readOnly?: boolean }[] = [
  { key: 'displayName', label: 'Display name', max: profileLimits.name },
  { key: 'role', label: 'Role', max: profileLimits.role },
  { key: 'institution', label: 'Institution', max: profileLimits.institution },
  { key: 'bio', label: 'Bio', max: profileLimits.bio, multiline: true },
  { key: 'avatar', label: 'Avatar URL', readOnly: true },
];

/** /dashboard/profile: read-only until Edit, then Save or Cancel. */
export default function ProfileView() {
  const state = useStore($profile);
  useEffect(() => void loadProfile(), []);

  if (state.status === 'session-missing') {
    return (
      <section aria-labelledby="profile-title" className="dash-section">
        <h1 id="profile-title">Profile</h1>
        <div role="alert" className="dash-notice">
          <p>
            Your session is missing or has expired. Please <a href="/login">sign in</a> again.
          </p>
          <p>Redirecting in ~6s...</p>
        </div>
      </section>
    );
  }

  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    void saveProfile();
  };

  return (
    <section aria-labelledby="profile-title" className="dash-section">
      <h1 id="profile-title">Profile</h1>
      {state.status === 'loading' && <p role="status">Loading profile...</p>}
      {state.status === 'load-failed' && (
        <p role="alert" className="dash-error">
          {state.error}
        </p>
      )}
      {state.status === 'ready' && (
        <form className="dash-form" onSubmit={submit} noValidate>
          {fields.map((field) => {
            const id = `profile-${field.key}`;
            const common = {
              id,
              name: field.key,
              value: state.draft[field.key],
              readOnly: !state.editing || field.readOnly,
              maxLength: field.max,
              required: field.key === 'displayName',
              onChange: (event: { target: { value: string } }) => editProfileField(field.key, event.target.value),
            };
            return (
              <div className="dash-field" key={field.key}>
                <label htmlFor={id}>
                  {field.label}
                  {field.key === 'displayName' && state.editing ? ' (required)' : ''}
                </label>
                {field.multiline ? <textarea rows={4} {...common} /> : <input {...common} />}
              </div>
            );
          })}
          <div className="dash-form-actions">
            {state.editing ? (
              <>
                {/* Distinct keys: reusing the Edit button as a submit button would submit during its own click. */}
                <button key="save" type="submit" className="dash-primary" disabled={state.saving}>
                  {state.saving ? 'Saving...' : 'Save'}
                </button>
                <button type="button" className="dash-quiet" onClick={cancelEditing}>
                  Cancel
                </button>
              </>
            ) : (
              <button key="edit" type="button" className="dash-primary" onClick={startEditing}>
                Edit
              </button>
            )}
          </div>
          <div aria-live="polite">
            {state.message && <p className="dash-ok">{state.message}</p>}
            {state.error && (
              <p role="alert" className="dash-error">
                {state.error}
              </p>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
