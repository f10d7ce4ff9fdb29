import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { commentsNewestFirst } from '../../lib/comments.ts';
import { $comments, $commentSaving, saveComment } from '../../stores/comments.ts';
import DateTime from './DateTime.tsx';

/** The image's comments, newest first, kept in this browser, with a box to add one. */
export default function CommentsPanel({ storedFilename }: { storedFilename: string }) {
  const book = useStore($comments);
  const saving = useStore($commentSaving);
  const [text, setText] = useState('');
  const comments = commentsNewestFirst(book, storedFilename);

  const save = async () => {
    await saveComment(storedFilename, text);
    setText('');
  };

  return (
    <section className="dash-comments" aria-labelledby="comments-title">
      <h3 id="comments-title">Comments</h3>
      <label htmlFor="comment-text">Add a comment</label>
      <textarea id="comment-text" rows={3} value={text} onChange={(event) => setText(event.target.value)} />
      <div className="dash-comment-actions">
        <button type="button" className="dash-primary" disabled={!text.trim() || saving} onClick={() => void save()}>
          {saving ? 'Saving...' : 'Save'}
        </button>
        <button type="button" className="dash-quiet" disabled={text === ''} onClick={() => setText('')}>
          Clear
        </button>
      </div>
      {comments.length === 0 ? (
        <p className="dash-muted">No comments yet.</p>
      ) : (
        <ol className="dash-comment-list" aria-label="Comments, newest first" tabIndex={0}>
          {comments.map((comment) => (
            <li key={`${comment.ts}-${comment.text}`}>
              <p>{comment.text}</p>
              <DateTime at={comment.ts} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
