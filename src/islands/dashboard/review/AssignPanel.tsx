import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { $currentReview, assignCurrent } from '../../../stores/reviews.ts';
import { $currentWorkspace, $members } from '../../../stores/workspaces.ts';

/** An admin assigns the shown image to raters; they find it under "Assigned to me". */
export default function AssignPanel() {
  const review = useStore($currentReview);
  const workspace = useStore($currentWorkspace);
  const members = useStore($members);
  const [error, setError] = useState<string>();
  if (!review || workspace?.role !== 'admin' || members.status !== 'ready') return null;
  const raters = members.items.filter((m) => m.role !== 'viewer');
  const toggle = async (userId: string, on: boolean) => {
    const ids = on ? [...review.assignees, userId] : review.assignees.filter((id) => id !== userId);
    setError(await assignCurrent(ids));
  };
  return (
    <fieldset className="review-assign">
      <legend>Assigned to</legend>
      {raters.map((member) => (
        <label key={member.user_id} className="dash-check">
          <input
            type="checkbox"
            checked={review.assignees.includes(member.user_id)}
            onChange={(event) => void toggle(member.user_id, event.target.checked)}
          />
          {member.name}
        </label>
      ))}
      {error && (
        <p role="alert" className="dash-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
